import "server-only";
import { logSettingChangeSchema } from "@/lib/studio/request-logs";
import { listAudit } from "../audit/audit-log";
import { authenticate } from "../auth/authenticate";
import { errorResponse, jsonResponse, streamedTextResponse } from "../http/responses";
import {
  changeLogSetting,
  exportLogs,
  listLogs,
  logQuery,
  logSettings,
  readLog,
} from "../logs/request-logs";
import { readStudioJson } from "./studio-json";

/**
 * `/api/logs`: request log entries (GET, filters `model`, `status`, `from`, `to`, `keyId`,
 * `personId`, `before`, `limit`); `/api/logs/{id}`: one entry with its exchange;
 * `/api/logs/export?format=jsonl|csv`: the filter's entries as a file; `/api/logs/settings`:
 * the logging of the caller and their workspace's keys (GET), changed with PUT
 * `{subject, logging}`. `/api/admin/audit`: the audit log, for admins.
 */

const NO_STORE = { "Cache-Control": "no-store" };

function route(work: (request: Request, id?: string) => Promise<unknown>) {
  return async (request: Request, id?: string): Promise<Response> => {
    try {
      return jsonResponse(await work(request, id), { headers: NO_STORE });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

const list = route(async (request) => listLogs(await authenticate(request), new URL(request.url)));

const read = route(async (request, id) => readLog(await authenticate(request), id!));

async function exportFile(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const url = new URL(request.url);
    // Checked before the first byte: a bad filter is a 400, never a cut download.
    const { format } = logQuery(caller, url);
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
    return streamedTextResponse(
      exportLogs(caller, url),
      format === "csv" ? "text/csv; charset=utf-8" : "application/jsonl; charset=utf-8",
      { "Content-Disposition": `attachment; filename="request-logs-${stamp}.${format}"` },
    );
  } catch (error) {
    return errorResponse(error);
  }
}

const settings = route(async (request) => logSettings(await authenticate(request)));

const changeSettings = route(async (request) => {
  const caller = await authenticate(request);
  const change = await readStudioJson(request, logSettingChangeSchema);
  await changeLogSetting(caller, change.subject, change.logging);
  return logSettings(caller);
});

const audit = route(async (request) =>
  listAudit(await authenticate(request), new URL(request.url)),
);

export const requestLogHandlers = { list, read, exportFile, settings, changeSettings, audit };
