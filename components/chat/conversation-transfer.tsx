"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import { conversationKeys } from "@/lib/hooks/use-conversations";
import type { ImportReport } from "@/lib/studio/conversation-archive";

/**
 * Export and import of conversations: downloads of one conversation or all of them (JSON,
 * lossless; Markdown, the branch shown) and the import of a JSON export, with a report of
 * what could not be brought back.
 */

const linkClassName =
  "rounded-md px-2 py-1 text-xs underline underline-offset-2 hover:bg-zinc-100 dark:hover:bg-zinc-800";

function exportHref(conversationId: string | null, format: "json" | "markdown"): string {
  const base = conversationId
    ? `/api/conversations/${encodeURIComponent(conversationId)}/export`
    : "/api/conversations/export";
  return `${base}?format=${format}`;
}

/** "Export" for the open conversation, in the chat's header. */
export function ConversationExportMenu({ conversationId }: { conversationId: string }) {
  return (
    <details className="relative text-sm">
      <summary className="cursor-pointer list-none rounded-md border border-zinc-300 px-2 py-1 text-xs font-medium select-none dark:border-zinc-700">
        Export
      </summary>
      <div className="absolute right-0 z-20 mt-1 flex w-56 flex-col rounded-md border border-zinc-200 bg-white p-1 shadow-md dark:border-zinc-800 dark:bg-zinc-950">
        <a className={linkClassName} href={exportHref(conversationId, "json")} download>
          This conversation as JSON (every version)
        </a>
        <a className={linkClassName} href={exportHref(conversationId, "markdown")} download>
          This conversation as Markdown
        </a>
      </div>
    </details>
  );
}

/** Export all and import, under the conversation list. */
export function ConversationTransfer() {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function importFile(file: File) {
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const response = await fetch("/api/conversations/import", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: file,
        credentials: "same-origin",
      });
      if (!response.ok) throw await readApiError(response);
      setReport((await response.json()) as ImportReport);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.lists() });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <details className="text-xs">
      <summary className="cursor-pointer px-2 py-1 font-medium select-none">
        Export and import
      </summary>
      <div className="flex flex-col gap-1 px-1 pt-1">
        <a className={linkClassName} href={exportHref(null, "json")} download>
          Export all as JSON
        </a>
        <a className={linkClassName} href={exportHref(null, "markdown")} download>
          Export all as Markdown
        </a>
        <label htmlFor="conversation-import" className="sr-only">
          Import conversations from a JSON export
        </label>
        <input
          id="conversation-import"
          ref={input}
          type="file"
          accept="application/json,.json"
          className="hidden"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file);
          }}
        />
        <Button size="sm" onClick={() => input.current?.click()} disabled={busy}>
          {busy ? "Importing…" : "Import a JSON export…"}
        </Button>
        {error && (
          <p role="alert" className="px-1 text-red-700 dark:text-red-400">
            Nothing was imported: {error}
          </p>
        )}
        {report && <ImportReportView report={report} />}
      </div>
    </details>
  );
}

/** What an import brought in, and which files and caches it could not bring back. */
function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <div role="status" className="px-1" data-import-report="">
      <p>
        Imported {report.imported.length}{" "}
        {report.imported.length === 1 ? "conversation" : "conversations"}.
      </p>
      {report.alreadyHere.length > 0 && (
        <ul className="mt-1 list-disc pl-4" aria-label="Already here">
          {report.alreadyHere.map((item) => (
            <li key={item.id}>
              “{item.title}” is already here
              {item.added
                ? `: ${item.added} new ${item.added === 1 ? "message" : "messages"} added to it.`
                : ", nothing new."}
            </li>
          ))}
        </ul>
      )}
      {report.notRestored.length > 0 && (
        <>
          <p className="mt-1 font-medium">Could not bring back:</p>
          <ul className="list-disc pl-4">
            {report.notRestored.map((item, index) => (
              <li key={index}>
                {item.kind === "file" ? "File" : "Cache"}{" "}
                <span className="font-mono">{item.name}</span> in “{item.conversation}”:{" "}
                {item.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
