"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { KeyLimits } from "@/lib/studio/key-limits";
import { KeyLimitsFields, draftOf, limitsOf, type LimitsDraft } from "./key-limits-fields";

/** Editing limits (a key's, or a person's allowance): the fields and a save button. */
export function LimitsForm({
  label,
  initial,
  idPrefix,
  saveLabel,
  pending,
  onSave,
}: {
  label: string;
  initial: KeyLimits | null;
  idPrefix: string;
  saveLabel: string;
  pending: boolean;
  onSave(limits: KeyLimits): void;
}) {
  const [draft, setDraft] = useState<LimitsDraft>(draftOf(initial));
  return (
    <form
      aria-label={label}
      className="mt-2 flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(limitsOf(draft));
      }}
    >
      <KeyLimitsFields draft={draft} onChange={setDraft} idPrefix={idPrefix} />
      <div>
        <Button type="submit" variant="primary" size="sm" disabled={pending}>
          {saveLabel}
        </Button>
      </div>
    </form>
  );
}
