import "server-only";
import { logSettingChangeSchema } from "@/lib/studio/request-logs";
import { listAudit } from "../audit/audit-log";
import { jsonResponse, streamedTextResponse } from "../http/responses";
import {
  changeLogSetting,
  exportLogs,
  listLogs,
  logQuery,
  logSettings,
  readLog,
} from "../reports/request-logs";
import { studioEndpoint } from "./studio-endpoint";

/**
 * `/api/logs`: request log entries (GET, filters `model`, `status`, `from`, `to`, `keyId`,
 * `personId`, `before`, `limit`); `/api/logs/{id}`: one entry with its exchange;
 * `/api/logs/export?format=jsonl|csv`: the filter's entries as a file; `/api/logs/settings`:
 * the logging of the caller and their workspace's keys (GET), changed with PUT
 * `{subject, logging}`. `/api/admin/audit`: the audit log, for admins.
 */

const NO_STORE = { "Cache-Control": "no-store" };

const list = studioEndpoint(async ({ request, caller }) =>
  jsonResponse(await listLogs(caller, new URL(request.url)), { headers: NO_STORE }),
);

const read = studioEndpoint(async ({ caller }, id: string) =>
  jsonResponse(await readLog(caller, id), { headers: NO_STORE }),
);

const exportFile = studioEndpoint(async ({ request, caller }) => {
  const url = new URL(request.url);
  // Checked before the first byte: a bad filter is a 400, never a cut download.
  const { format } = logQuery(caller, url);
  const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
  return streamedTextResponse(
    exportLogs(caller, url),
    format === "csv" ? "text/csv; charset=utf-8" : "application/jsonl; charset=utf-8",
    { "Content-Disposition": `attachment; filename="request-logs-${stamp}.${format}"` },
  );
});

const settings = studioEndpoint(async ({ caller }) =>
  jsonResponse(await logSettings(caller), { headers: NO_STORE }),
);

const changeSettings = studioEndpoint(async ({ caller, body }) => {
  const change = await body(logSettingChangeSchema);
  await changeLogSetting(caller, change.subject, change.logging);
  return jsonResponse(await logSettings(caller), { headers: NO_STORE });
});

const audit = studioEndpoint(async ({ request, caller }) =>
  jsonResponse(await listAudit(caller, new URL(request.url)), { headers: NO_STORE }),
);

export const requestLogHandlers = { list, read, exportFile, settings, changeSettings, audit };
