import "server-only";
import { authenticate } from "../auth/authenticate";
import { errorResponse, jsonResponse, streamedTextResponse } from "../http/responses";
import { usageCsv, usageQuery, usageReport } from "../usage/usage-report";

/**
 * `/api/usage`: the Usage page's report (GET, filters `from`, `to`, `model`, `keyId`,
 * `personId`); `/api/usage/export`: the same ledger rows as CSV. Whose usage: usage-scope.ts.
 */

async function report(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    return jsonResponse(await usageReport(caller, new URL(request.url)), {
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

async function exportCsv(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const url = new URL(request.url);
    // Checked before the first byte: a bad filter is a 400, never a cut download.
    const { filter } = usageQuery(caller, url);
    return streamedTextResponse(usageCsv(caller, url), "text/csv; charset=utf-8", {
      "Content-Disposition": `attachment; filename="usage-${filter.from}-to-${filter.to}.csv"`,
    });
  } catch (error) {
    return errorResponse(error);
  }
}

export const usageHandlers = { report, exportCsv };
