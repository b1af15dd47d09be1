"use client";

import type { ReactNode } from "react";
import { Field } from "@/components/ui/field";
import { NumberInput, type NumberInputProps } from "./number-input";

export interface NumberFieldProps extends Omit<
  NumberInputProps,
  "id" | "aria-describedby" | "aria-invalid"
> {
  label: string;
  hint?: ReactNode;
  errors?: readonly string[];
}

/** A labelled NumberInput with its hint and inline errors: the shape of most numeric settings. */
export function NumberField({ label, hint, errors, ...input }: NumberFieldProps) {
  return (
    <Field label={label} hint={hint} errors={errors}>
      {(props) => <NumberInput {...props} {...input} />}
    </Field>
  );
}
