"use client";

import {
  forwardRef,
  useImperativeHandle,
  useRef,
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { Button } from "@/components/ui/button";
import { useChatStore } from "@/lib/stores/chat-store";
import { useCoarsePointer } from "@/lib/hooks/use-coarse-pointer";

export interface ComposerProps {
  draftKey: string;
  streaming: boolean;
  /** A prompt was sent and the server has not acknowledged it yet. */
  sending?: boolean;
  onSend(text: string): void;
  onStop(): void;
  /** A paste into the box (files and long texts become attachments). */
  onPaste?(event: ClipboardEvent<HTMLTextAreaElement>): void;
  /** Controls at the start of the toolbar row (attach files, attached cache). */
  toolbar?: ReactNode;
  /** Why Send waits (attachments not ACTIVE yet), shown beside it; null when it may send. */
  sendBlockedReason?: string | null;
}

export interface ComposerHandle {
  focus(): void;
}

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line, Escape stops a running answer.
 * On a touch screen Enter is the keyboard's new line and Send sends. The toolbar row holds
 * the attachment controls.
 */
export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer(
  { draftKey, streaming, sending, onSend, onStop, onPaste, toolbar, sendBlockedReason },
  handle,
) {
  const text = useChatStore((state) => state.drafts[draftKey] ?? "");
  const setDraft = useChatStore((state) => state.setDraft);
  const input = useRef<HTMLTextAreaElement>(null);
  const touch = useCoarsePointer();
  useImperativeHandle(handle, () => ({ focus: () => input.current?.focus() }), []);

  function send() {
    if (streaming || text.trim() === "" || sendBlockedReason) return;
    onSend(text);
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing && !touch) {
      event.preventDefault();
      send();
    }
  }
  return (
    <form
      aria-label="Send a message"
      className="flex flex-col gap-2 rounded-xl border border-zinc-300 bg-white p-2 focus-within:border-zinc-500 dark:border-zinc-700 dark:bg-zinc-900"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label htmlFor="chat-prompt" className="sr-only">
        Message
      </label>
      <textarea
        id="chat-prompt"
        ref={input}
        value={text}
        onChange={(event) => setDraft(draftKey, event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        placeholder={
          touch ? "Ask something…" : "Ask something… (Enter to send, Shift+Enter for a new line)"
        }
        className="w-full resize-none bg-transparent px-2 py-1 text-sm outline-none"
        aria-keyshortcuts={touch ? undefined : "Enter"}
      />
      <div className="flex flex-wrap items-center justify-end gap-2">
        {toolbar}
        {sendBlockedReason && (
          <p
            id="send-blocked-reason"
            role="status"
            className="min-w-0 flex-1 basis-48 text-right text-xs text-amber-800 dark:text-amber-300"
          >
            {sendBlockedReason}
          </p>
        )}
        {sending ? (
          <Button variant="primary" disabled aria-busy="true">
            Sending…
          </Button>
        ) : streaming ? (
          <Button variant="secondary" onClick={onStop} aria-keyshortcuts="Escape">
            Stop
          </Button>
        ) : (
          <Button
            variant="primary"
            type="submit"
            disabled={text.trim() === "" || Boolean(sendBlockedReason)}
            aria-describedby={sendBlockedReason ? "send-blocked-reason" : undefined}
          >
            Send
          </Button>
        )}
      </div>
    </form>
  );
});
