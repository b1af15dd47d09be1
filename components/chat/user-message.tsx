"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { memo, useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { isAttachedText, typedText } from "@/lib/studio/message-text";
import { PastedTextViewer } from "@/components/files/pasted-text-viewer";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { inputClassName } from "@/components/ui/field";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { PromptAttachment } from "./prompt-attachment";
import { useSwitchVersion, VersionSwitcher, type VersionProps } from "./version-switcher";

/** Longer prompts show their beginning until expanded (a pasted document need not fill the page). */
const COLLAPSED_PROMPT_CHARACTERS = 3000;

/**
 * A prompt of the conversation: its parts (or the editor, see usePromptEdit), and under them its
 * versions, expand, copy and edit.
 */
export const UserMessage = memo(function UserMessage({
  message,
  conversationId,
  busy,
  versionIndex,
  versionCount,
  previousVersionId,
  nextVersionId,
}: {
  message: StoredMessage;
  conversationId: string;
  busy: boolean;
} & VersionProps) {
  const switchVersion = useSwitchVersion(conversationId);
  const { editing, text, setText, start, save, cancel, editButton } = usePromptEdit(
    message,
    conversationId,
  );
  const hasText = message.content.parts.some((part) => part.text !== undefined);
  const [expanded, setExpanded] = useState(false);
  return (
    <article
      aria-label="Your message"
      data-message-id={message.id}
      className="group flex flex-col items-end gap-1 [contain-intrinsic-size:auto_4rem] [content-visibility:auto]"
    >
      {editing ? (
        <PromptEditor
          id={`edit-${message.id}`}
          text={text}
          busy={busy}
          onChange={setText}
          onSave={save}
          onCancel={cancel}
        />
      ) : (
        <PromptParts message={message} expanded={expanded} />
      )}
      {!editing && (
        <div className="flex items-center gap-1">
          <VersionSwitcher
            index={versionIndex}
            count={versionCount}
            previousId={previousVersionId}
            nextId={nextVersionId}
            disabled={busy}
            subject="message"
            onSwitch={switchVersion}
          />
          <ExpandPromptButton
            message={message}
            expanded={expanded}
            onToggle={() => setExpanded(!expanded)}
          />
          <CopyButton text={() => typedText(message)} label="Copy your message" />
          {hasText && (
            <Button
              ref={editButton}
              size="sm"
              variant="ghost"
              onClick={start}
              disabled={busy}
              aria-label="Edit message"
            >
              Edit
            </Button>
          )}
        </div>
      )}
    </article>
  );
});

/**
 * Editing a prompt: the text being edited, saving it (which sends a new version) and cancelling
 * (which restores the prompt's text and puts the focus back on Edit).
 */
function usePromptEdit(message: StoredMessage, conversationId: string) {
  const actions = useChatActions();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => typedText(message));
  const editButton = useRef<HTMLButtonElement>(null);
  function cancel() {
    setEditing(false);
    setText(typedText(message));
    requestAnimationFrame(() => editButton.current?.focus());
  }
  function save() {
    if (text.trim() === "") return;
    setEditing(false);
    void actions.edit(conversationId, message.id, text);
  }
  return { editing, start: () => setEditing(true), text, setText, save, cancel, editButton };
}

/** The prompt being edited: Enter saves and sends, Shift+Enter adds a line, Escape cancels. */
function PromptEditor({
  id,
  text,
  busy,
  onChange,
  onSave,
  onCancel,
}: {
  id: string;
  text: string;
  busy: boolean;
  onChange(text: string): void;
  onSave(): void;
  onCancel(): void;
}) {
  const editor = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    editor.current?.focus();
  }, []);
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onSave();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  }
  return (
    <div className="flex w-full max-w-[85%] flex-col gap-2">
      <label className="sr-only" htmlFor={id}>
        Edit your message
      </label>
      <textarea
        id={id}
        ref={editor}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        className={inputClassName}
      />
      <div className="flex justify-end gap-2">
        <Button size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" onClick={onSave} disabled={text.trim() === "" || busy}>
          Save and send
        </Button>
      </div>
    </div>
  );
}

/** A prompt's parts as sent: text (a long one cut until expanded), function responses, attachments. */
function PromptParts({ message, expanded }: { message: StoredMessage; expanded: boolean }) {
  return (
    <div className="max-w-[85%] rounded-2xl bg-zinc-100 px-4 py-2 text-sm whitespace-pre-wrap break-words dark:bg-zinc-800">
      {message.content.parts.map((part, index) =>
        part.text !== undefined && isAttachedText(message, index) ? (
          <span key={index} className="my-1 block">
            <AttachedText
              text={part.text}
              name={
                message.attachments?.find((record) => record.part === index)?.displayName ??
                "Pasted text"
              }
            />
          </span>
        ) : part.text !== undefined ? (
          <span key={index} data-user-text="">
            {expanded || part.text.length <= COLLAPSED_PROMPT_CHARACTERS
              ? part.text
              : `${part.text.slice(0, COLLAPSED_PROMPT_CHARACTERS)}…`}
          </span>
        ) : part.functionResponse ? (
          <span key={index} className="block font-mono text-xs">
            Function response {part.functionResponse.name}:{" "}
            {JSON.stringify(part.functionResponse.response)}
          </span>
        ) : part.fileData || part.inlineData ? (
          <span key={index} className="my-1 block">
            <PromptAttachment
              part={part}
              record={message.attachments?.find((record) => record.part === index)}
            />
          </span>
        ) : (
          <span key={index} className="block text-xs text-zinc-600 dark:text-zinc-400">
            [{Object.keys(part)[0]}]
          </span>
        ),
      )}
    </div>
  );
}

/** "Show all N characters" under a prompt long enough to be shown cut, and back. */
function ExpandPromptButton({
  message,
  expanded,
  onToggle,
}: {
  message: StoredMessage;
  expanded: boolean;
  onToggle(): void;
}) {
  const long = message.content.parts.some(
    (part, index) =>
      !isAttachedText(message, index) && (part.text?.length ?? 0) > COLLAPSED_PROMPT_CHARACTERS,
  );
  if (!long) return null;
  return (
    <Button size="sm" variant="ghost" aria-expanded={expanded} onClick={onToggle}>
      {expanded ? "Show less" : `Show all ${formatNumber(typedText(message).length)} characters`}
    </Button>
  );
}

/** A long paste sent with the prompt: its name and size, opened to read on demand. */
function AttachedText({ text, name }: { text: string; name: string }) {
  const [reading, setReading] = useState(false);
  return (
    <span className="inline-flex flex-wrap items-center gap-2 rounded-md border border-zinc-300 bg-white px-2 py-1 text-xs whitespace-normal dark:border-zinc-700 dark:bg-zinc-900">
      <span className="font-medium">{name}</span>
      <span className="text-zinc-600 dark:text-zinc-400">
        {formatNumber(text.length)} characters
      </span>
      <Button
        size="sm"
        onClick={() => setReading(true)}
        aria-haspopup="dialog"
        aria-label={`Open ${name}`}
      >
        Open
      </Button>
      {reading && <PastedTextViewer title={name} text={text} onClose={() => setReading(false)} />}
    </span>
  );
}
