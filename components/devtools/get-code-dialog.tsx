"use client";

import { useId, useState } from "react";
import { MarkdownView } from "@/components/chat/markdown-view";
import { CopyButton } from "@/components/ui/copy-button";
import { ModalDialog } from "@/components/ui/dialog";
import {
  CODE_LANGUAGES,
  KEY_VARIABLE,
  SERVICE_ORIGIN,
  codeSnippet,
  type CodeKey,
  type CodeLanguage,
  type CodeTarget,
} from "@/lib/studio/get-code";
import type { TurnRequest } from "@/lib/studio/turn-requests";
import { CodeKeyPicker } from "./code-key-picker";
import { Tabs } from "./tabs";

export interface GetCodeDialogProps {
  open: boolean;
  onClose(): void;
  /** What the snippets send; null while it cannot be built (the conversation is loading). */
  turn: TurnRequest | null;
  /** Said above the snippets (e.g. that the prompt is a placeholder). */
  note?: string;
  title: string;
}

/** The request as curl, Python, JavaScript and REST JSON, pointed at this studio or the service. */
export function GetCodeDialog({ open, onClose, turn, note, title }: GetCodeDialogProps) {
  const [language, setLanguage] = useState<CodeLanguage>("curl");
  const [targetKind, setTargetKind] = useState<CodeTarget["kind"]>("studio");
  const [key, setKey] = useState<CodeKey | undefined>(undefined);
  const targetName = useId();
  const target: CodeTarget =
    targetKind === "studio"
      ? { kind: "studio", origin: typeof window === "undefined" ? "" : window.location.origin }
      : { kind: "service" };
  const fence = CODE_LANGUAGES.find((item) => item.language === language)!.fence;
  const snippet = turn ? codeSnippet(language, { ...turn, target, key }) : "";
  const label = CODE_LANGUAGES.find((item) => item.language === language)!.label;
  // A new key's secret is shown only while this dialog stays open.
  function close() {
    if (key?.secret) setKey(undefined);
    onClose();
  }
  return (
    <ModalDialog open={open} onClose={close} title={title}>
      <fieldset className="flex flex-wrap items-center gap-3 text-sm">
        <legend className="sr-only">Send to</legend>
        <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">Send to</span>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name={targetName}
            checked={targetKind === "studio"}
            onChange={() => setTargetKind("studio")}
          />
          This studio ({target.kind === "studio" ? target.origin : "its origin"})
        </label>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name={targetName}
            checked={targetKind === "service"}
            onChange={() => setTargetKind("service")}
          />
          The Gemini API ({SERVICE_ORIGIN.replace("https://", "")})
        </label>
      </fieldset>
      {targetKind === "studio" && open && <CodeKeyPicker value={key} onChange={setKey} />}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        The key is read from the environment variable <code>{KEY_VARIABLE}</code>:{" "}
        {targetKind === "studio"
          ? "one of your studio keys (Account), which sees the same files and caches as this chat."
          : "your own key for the service."}{" "}
        {note}
      </p>
      <Tabs
        label="Language"
        items={CODE_LANGUAGES.map((item) => ({ id: item.language, label: item.label }))}
        selected={language}
        onSelect={(id) => setLanguage(id as CodeLanguage)}
      >
        <div className="flex justify-end">
          <CopyButton text={snippet} label={`Copy ${label} code`} />
        </div>
        <div className="max-h-[60vh] overflow-y-auto" data-code-snippet={language}>
          {turn ? (
            <MarkdownView text={`\`\`\`${fence}\n${snippet}\`\`\``} />
          ) : (
            <p className="text-sm">Loading the conversation…</p>
          )}
        </div>
      </Tabs>
    </ModalDialog>
  );
}
