"use client";

import { useEffect, useRef, useState } from "react";
import { inputClassName } from "@/components/ui/field";

export interface JsonEditorProps {
  id: string;
  value: unknown;
  /** Called with the parsed value, or `undefined` when the box is emptied. */
  onChange(value: unknown): void;
  /** Reports text that does not parse (null once it does). */
  onParseError(error: string | null): void;
  rows?: number;
  placeholder?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

/** A JSON text box (schemas, function declarations): parses as typed and keeps invalid text. */
export function JsonEditor({
  id,
  value,
  onChange,
  onParseError,
  rows = 8,
  placeholder,
  ...aria
}: JsonEditorProps) {
  const [text, setText] = useState(() =>
    value === undefined ? "" : JSON.stringify(value, null, 2),
  );
  const lastSent = useRef<unknown>(value);
  useEffect(() => {
    // Take outside changes (another model, a reload) but not the echo of our own edits.
    if (value !== lastSent.current) {
      lastSent.current = value;
      setText(value === undefined ? "" : JSON.stringify(value, null, 2));
      onParseError(null);
    }
  }, [value, onParseError]);
  return (
    <textarea
      id={id}
      rows={rows}
      spellCheck={false}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (next.trim() === "") {
          lastSent.current = undefined;
          onParseError(null);
          onChange(undefined);
          return;
        }
        try {
          const parsed: unknown = JSON.parse(next);
          lastSent.current = parsed;
          onParseError(null);
          onChange(parsed);
        } catch (error) {
          onParseError(`Not valid JSON: ${(error as Error).message}`);
        }
      }}
      className={`${inputClassName} font-mono text-xs`}
      {...aria}
    />
  );
}
