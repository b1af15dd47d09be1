"use client";

import { useId, type ReactNode } from "react";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { ModelFacts } from "@/lib/studio/model-facts";
import type { GenerationConfig } from "@/lib/gemini/types";

/** What every group of settings fields receives from the panel. */
export interface SettingsFieldsProps {
  /** The conversation's key in the chat store (form errors are kept under it). */
  settingsKey: string;
  settings: ConversationSettings;
  /** The chosen model's facts; its rules are `traits`. */
  facts: ModelFacts | undefined;
  traits: ModelTraits | undefined;
  update(settings: ConversationSettings): void;
  setConfig(changes: Partial<Record<keyof GenerationConfig, unknown>>): void;
  errorsOf(field: string): string[] | undefined;
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <legend className="pr-2 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
        {title}
      </legend>
      {children}
    </fieldset>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  errors,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  errors?: string[];
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex items-center gap-2 text-sm">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={errors?.length ? true : undefined}
        />
        {label}
      </label>
      {errors?.length ? (
        <ul className="text-xs text-red-700 dark:text-red-400" data-field-error="">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
