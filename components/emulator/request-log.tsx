"use client";

import { Button } from "@/components/ui/button";
import {
  useClearRequestLog,
  useRequestLog,
  type LoggedBody,
  type RequestLogEntry,
} from "@/lib/hooks/use-emulator";

function BodyView({ label, body }: { label: string; body: LoggedBody }) {
  return (
    <div className="min-w-0 flex-1">
      <h3 className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {label} · {body.contentType ?? "no type"} · {body.bytes} bytes
        {body.truncated ? " (first bytes shown)" : ""}
      </h3>
      <pre
        tabIndex={0}
        className="mt-1 max-h-72 overflow-auto rounded bg-zinc-100 p-2 text-xs whitespace-pre-wrap break-all dark:bg-zinc-900"
      >
        {body.text ?? (body.bytes ? "(binary)" : "(empty)")}
      </pre>
    </div>
  );
}

function EntryView({ entry }: { entry: RequestLogEntry }) {
  const failed = entry.status >= 400 || entry.ended !== undefined;
  return (
    <li className="border-t border-zinc-200 dark:border-zinc-800">
      <details>
        <summary className="flex cursor-pointer flex-wrap gap-x-3 py-1.5 text-sm">
          <time
            dateTime={entry.time}
            className="font-mono text-xs text-zinc-600 dark:text-zinc-400"
          >
            {entry.time.slice(11, 23)}
          </time>
          <span className="font-medium">{entry.operation}</span>
          {entry.model && <span className="text-zinc-600 dark:text-zinc-400">{entry.model}</span>}
          <span
            className={
              failed ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"
            }
          >
            {entry.status}
            {entry.ended ? ` (${entry.ended})` : ""}
          </span>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{entry.durationMs} ms</span>
          {entry.scenarioId && (
            <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
              scenario {entry.scenarioName ?? entry.scenarioId}
            </span>
          )}
          {entry.replayedFrom !== undefined && (
            <span className="rounded bg-sky-100 px-1.5 text-xs text-sky-900 dark:bg-sky-900/40 dark:text-sky-200">
              replayed
            </span>
          )}
        </summary>
        <div className="flex flex-col gap-2 pb-2 md:flex-row">
          <BodyView label={`${entry.method} ${entry.path}`} body={entry.request} />
          <BodyView label="Answer" body={entry.response} />
        </div>
      </details>
    </li>
  );
}

/** The caller's request log, newest first, refreshed while shown. */
export function RequestLogView() {
  const log = useRequestLog();
  const clear = useClearRequestLog();
  return (
    <section aria-labelledby="request-log-heading" className="flex flex-col gap-2">
      <div className="flex items-center gap-2">
        <h2 id="request-log-heading" className="text-lg font-semibold">
          Request log
        </h2>
        <Button size="sm" variant="ghost" onClick={() => clear.mutate()}>
          Clear log
        </Button>
      </div>
      {log.error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {log.error.message}
        </p>
      )}
      {log.data?.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No requests yet: requests to the API with your key or this session appear here.
        </p>
      )}
      <ul aria-label="Requests, newest first">
        {log.data?.map((entry) => (
          <EntryView key={entry.id} entry={entry} />
        ))}
      </ul>
    </section>
  );
}
