"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { TurnRequest } from "@/lib/studio/turn-requests";
import { GetCodeDialog } from "./get-code-dialog";

export interface GetCodeButtonProps {
  /** Builds the request when the dialog opens (so a draft typed since is included). */
  turn(): { turn: TurnRequest | null; note?: string };
  title: string;
  /** Accessible name of the button when its text alone would be ambiguous. */
  label?: string;
  className?: string;
}

/** A "Get code" button and its dialog. */
export function GetCodeButton({ turn, title, label, className }: GetCodeButtonProps) {
  const [shown, setShown] = useState<{ turn: TurnRequest | null; note?: string } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  function close() {
    setShown(null);
    requestAnimationFrame(() => button.current?.focus());
  }
  return (
    <>
      <Button
        ref={button}
        size="sm"
        variant="ghost"
        className={className}
        aria-label={label}
        aria-haspopup="dialog"
        onClick={() => setShown(turn())}
      >
        Get code
      </Button>
      {shown && (
        <GetCodeDialog open onClose={close} turn={shown.turn} note={shown.note} title={title} />
      )}
    </>
  );
}
