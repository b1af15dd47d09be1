"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { ModalDialog } from "@/components/ui/dialog";

/** Characters a viewer lays out at first: a whole book at once would be a long task of layout. */
const SHOWN_CHARACTERS = 100_000;

/**
 * A long text sent as an attachment (a paste), opened to read: its beginning, more on demand,
 * and a copy of the whole.
 */
export function PastedTextViewer({
  title,
  text,
  onClose,
}: {
  title: string;
  text: string;
  onClose(): void;
}) {
  const [shown, setShown] = useState(SHOWN_CHARACTERS);
  const cut = text.length > shown;
  return (
    <ModalDialog open title={title} onClose={onClose}>
      <div className="flex flex-col gap-2 text-sm">
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-zinc-600 dark:text-zinc-400" data-pasted-text-length="">
            {formatNumber(text.length)} characters
            {cut ? `; showing the first ${formatNumber(shown)}` : ""}.
          </p>
          <CopyButton text={text} label="Copy all of it" />
        </div>
        <pre
          className="max-h-[60vh] overflow-auto whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-900"
          tabIndex={0}
          aria-label={`Text of ${title}`}
        >
          {cut ? `${text.slice(0, shown)}…` : text}
        </pre>
        {cut && (
          <Button size="sm" onClick={() => setShown((count) => count + SHOWN_CHARACTERS * 5)}>
            Show more
          </Button>
        )}
      </div>
    </ModalDialog>
  );
}
