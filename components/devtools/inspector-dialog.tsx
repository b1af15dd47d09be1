"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { ModalDialog } from "@/components/ui/dialog";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { tokensPerSecond, traceTiming, type AnswerTrace } from "@/lib/studio/answer-trace";
import { useStoredTrace } from "@/lib/hooks/use-stored-trace";
import { Tabs } from "./tabs";

const TABS = [
  { id: "summary", label: "Summary" },
  { id: "request", label: "Request" },
  { id: "response", label: "Response headers" },
  { id: "events", label: "Events" },
];

const preClassName =
  "max-h-[55vh] overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap break-all dark:border-zinc-800 dark:bg-zinc-900";

function formatMilliseconds(value: number | undefined): string {
  return value === undefined ? "—" : `${formatNumber(value)} ms`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Summary({ trace, message }: { trace: AnswerTrace; message: StoredMessage }) {
  const timing = traceTiming(trace);
  const rate = tokensPerSecond(timing, message.usageMetadata);
  const rows: [string, string][] = [
    ["Model", trace.model.replace(/^models\//, "")],
    ["Endpoint", `POST ${trace.url}`],
    ["HTTP status", trace.status === undefined ? "no response" : String(trace.status)],
    ["Headers after", formatMilliseconds(trace.headersAt)],
    ["Time to first token", formatMilliseconds(timing.firstTokenMs)],
    ["Total time", formatMilliseconds(timing.totalMs)],
    ["Output tokens per second", rate === null ? "—" : formatNumber(Math.round(rate))],
    [
      "Events",
      `${formatNumber(trace.events.length)}${trace.droppedEvents ? ` (and ${formatNumber(trace.droppedEvents)} not kept)` : ""}`,
    ],
  ];
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
            <dd className="tabular-nums" data-inspector-fact={term}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <section aria-label="Final usage">
        <h3 className="text-sm font-semibold">Final usage</h3>
        <pre className={preClassName} data-inspector-usage="">
          {message.usageMetadata ? JSON.stringify(message.usageMetadata, null, 2) : "none"}
        </pre>
      </section>
      {(trace.errorBody !== undefined || message.error) && (
        <section aria-label="Error">
          <h3 className="text-sm font-semibold text-red-800 dark:text-red-300">Error</h3>
          <pre className={preClassName} data-inspector-error="">
            {trace.errorBody !== undefined
              ? prettyJson(trace.errorBody)
              : JSON.stringify({ error: message.error }, null, 2)}
          </pre>
        </section>
      )}
    </div>
  );
}

function Events({ trace }: { trace: AnswerTrace }) {
  if (trace.events.length === 0) return <p className="text-sm">No events arrived.</p>;
  return (
    <div className="max-h-[55vh] overflow-auto" tabIndex={0} aria-label="Streamed events">
      <table className="w-full border-collapse text-xs">
        <thead className="sticky top-0 bg-white dark:bg-zinc-900">
          <tr>
            <th scope="col" className="px-2 py-1 text-left">
              #
            </th>
            <th scope="col" className="px-2 py-1 text-left whitespace-nowrap">
              Arrived (ms)
            </th>
            <th scope="col" className="px-2 py-1 text-left">
              data
            </th>
          </tr>
        </thead>
        <tbody>
          {trace.events.map((event, index) => (
            <tr
              key={index}
              className="border-t border-zinc-200 align-top dark:border-zinc-800"
              data-inspector-event=""
            >
              <td className="px-2 py-1 tabular-nums">{index + 1}</td>
              <td className="px-2 py-1 tabular-nums">{formatNumber(event.at)}</td>
              <td className="px-2 py-1 font-mono break-all">{event.data}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The raw exchange of one answer: request as sent, response headers, every event, timings,
 * errors. The tab that read the answer keeps what it saw; any other page (after a reload, on
 * another device) reads what the server stored with the answer.
 */
export function InspectorDialog({
  open,
  onClose,
  conversationId,
  trace: tabTrace,
  message,
}: {
  open: boolean;
  onClose(): void;
  /** The answer's conversation, where its stored exchange is read; none for a logged request. */
  conversationId?: string;
  /** What this tab recorded, when it read the answer. */
  trace: AnswerTrace | undefined;
  message: StoredMessage;
}) {
  const [tab, setTab] = useState("summary");
  const stored = useStoredTrace(
    conversationId ?? "",
    message.id,
    open && !tabTrace && conversationId !== undefined,
  );
  const trace = tabTrace ?? stored.data ?? undefined;
  const request = trace ? JSON.stringify(trace.request, null, 2) : "";
  return (
    <ModalDialog open={open} onClose={onClose} title="Inspect this answer">
      {!trace ? (
        <div className="flex flex-col gap-2 text-sm">
          <p role="status">
            {stored.isPending
              ? "Reading the raw exchange stored with this answer…"
              : stored.isError
                ? `Could not read the raw exchange: ${stored.error.message}`
                : "No raw exchange is kept for this answer (it was stored before the studio kept them, or imported). Its request is under Get code, its usage below."}
          </p>
          <pre className={preClassName}>{JSON.stringify(message.usageMetadata ?? {}, null, 2)}</pre>
        </div>
      ) : (
        <Tabs label="Inspector" items={TABS} selected={tab} onSelect={setTab}>
          {tab === "summary" && <Summary trace={trace} message={message} />}
          {tab === "request" && (
            <div className="flex flex-col gap-1">
              <div className="flex justify-end">
                <CopyButton text={request} label="Copy the request JSON" />
              </div>
              <pre className={preClassName} data-inspector-request="">
                {request}
              </pre>
            </div>
          )}
          {tab === "response" && (
            <pre className={preClassName} data-inspector-headers="">
              {trace.status === undefined
                ? "No response arrived."
                : !trace.headers
                  ? `HTTP ${trace.status}\n\nGenerated on the studio's server: no response headers were recorded.`
                  : [
                      `HTTP ${trace.status}`,
                      ...trace.headers.map(([name, value]) => `${name}: ${value}`),
                    ].join("\n")}
            </pre>
          )}
          {tab === "events" && <Events trace={trace} />}
        </Tabs>
      )}
    </ModalDialog>
  );
}
