"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useChangeLogSetting, useLogSettings } from "@/lib/hooks/use-request-logs";
import type { Logging } from "@/lib/studio/request-logs";

const inputClassName =
  "w-20 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** One subject's logging: off, or on with a retention in days and whether media are kept. */
function LoggingRow({
  label,
  subject,
  logging,
}: {
  label: string;
  subject: string;
  logging: Logging | null;
}) {
  const change = useChangeLogSetting();
  const [days, setDays] = useState(String(logging?.retentionDays ?? 7));
  const [media, setMedia] = useState(logging?.includeMedia ?? false);
  const daysValue = Number(days);
  const valid = Number.isInteger(daysValue) && daysValue >= 1 && daysValue <= 365;
  return (
    <li className="flex flex-wrap items-center gap-3 py-2 text-sm" data-log-setting={subject}>
      <span className="min-w-40 flex-1 font-medium">{label}</span>
      <span
        className={
          logging ? "text-emerald-700 dark:text-emerald-400" : "text-zinc-600 dark:text-zinc-400"
        }
      >
        {logging
          ? `Logging, kept ${logging.retentionDays} days${logging.includeMedia ? ", with media" : ""}`
          : "Not logged"}
      </span>
      <label className="flex items-center gap-1">
        Days
        <input
          type="number"
          min={1}
          max={365}
          className={inputClassName}
          value={days}
          onChange={(event) => setDays(event.target.value)}
          aria-invalid={!valid}
        />
      </label>
      <label className="flex items-center gap-1">
        <input
          type="checkbox"
          checked={media}
          onChange={(event) => setMedia(event.target.checked)}
        />
        Keep inline media
      </label>
      <Button
        size="sm"
        disabled={!valid || change.isPending}
        onClick={() =>
          change.mutate({ subject, logging: { retentionDays: daysValue, includeMedia: media } })
        }
      >
        {logging ? "Save" : "Start logging"}
      </Button>
      {logging && (
        <Button
          size="sm"
          variant="ghost"
          disabled={change.isPending}
          onClick={() => change.mutate({ subject, logging: null })}
        >
          Stop logging
        </Button>
      )}
      {change.isError && (
        <span role="alert" className="w-full text-red-700 dark:text-red-400">
          {change.error.message}
        </span>
      )}
    </li>
  );
}

/**
 * Who is logged: the signed-in person (every request they make, with any key or page) and each
 * key of the workspace. Off by default; each entry is kept for its retention, then removed.
 */
export function LogSettingsSection() {
  const settings = useLogSettings();
  return (
    <section aria-labelledby="log-settings-title" className="flex flex-col gap-2">
      <h2 id="log-settings-title" className="text-sm font-semibold">
        What is logged
      </h2>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Requests to the API are logged only for the people and keys that ask for it, and only the
        owner and admins read them. Inline media (pictures, audio sent or answered) are left out
        unless you keep them. Keys and secrets are never logged.
      </p>
      {settings.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {settings.error.message}
        </p>
      )}
      {settings.data && (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {settings.data.person !== undefined && (
            <LoggingRow
              key={`person-${JSON.stringify(settings.data.person)}`}
              label="You (all your requests)"
              subject="person"
              logging={settings.data.person}
            />
          )}
          {settings.data.keys.map((key) => (
            <LoggingRow
              key={`${key.keyId}-${JSON.stringify(key.logging)}`}
              label={`Key ${key.name}`}
              subject={`key:${key.keyId}`}
              logging={key.logging}
            />
          ))}
          {settings.data.keys.length === 0 && settings.data.person === undefined && (
            <li className="py-2 text-sm">
              Make an API key on the Account page to log its requests.
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
