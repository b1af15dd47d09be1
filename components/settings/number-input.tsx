"use client";

import { useState } from "react";
import { inputClassName } from "@/components/ui/field";

export interface NumberInputProps {
  id: string;
  value: number | undefined;
  /** undefined when the box is emptied (the field is then left out of the request). */
  onChange(value: number | undefined): void;
  step?: number | "any";
  min?: number;
  max?: number;
  placeholder?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

/**
 * A number box that keeps what is being typed ("0.", "-") and reports a number (or unset)
 * only when the text is one. Range checks are the validation's job, not the box's: the
 * browser's min/max are hints.
 */
export function NumberInput({
  id,
  value,
  onChange,
  step = "any",
  min,
  max,
  placeholder,
  ...aria
}: NumberInputProps) {
  const [text, setText] = useState(value === undefined ? "" : String(value));
  // A value changed from outside replaces the text, unless the text already reads as it.
  const [shownValue, setShownValue] = useState(value);
  if (!Object.is(value, shownValue)) {
    setShownValue(value);
    if (text.trim() === "" || Number(text) !== value)
      setText(value === undefined ? "" : String(value));
  }
  return (
    <input
      id={id}
      type="number"
      inputMode="decimal"
      step={step}
      min={min}
      max={max}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (next.trim() === "") onChange(undefined);
        else if (Number.isFinite(Number(next))) onChange(Number(next));
      }}
      className={inputClassName}
      {...aria}
    />
  );
}
