import "server-only";
import { jsonResponse, streamedTextResponse } from "../http/responses";
import { studioEndpoint } from "./studio-endpoint";
import { usageCsv, usageQuery, usageReport } from "../reports/usage-report";

/**
 * `/api/usage`: the Usage page's report (GET, filters `from`, `to`, `model`, `keyId`,
 * `personId`); `/api/usage/export`: the same ledger rows as CSV. Whose usage: usage-scope.ts.
 */

const report = studioEndpoint(async ({ request, caller }) =>
  jsonResponse(await usageReport(caller, new URL(request.url)), {
    headers: { "Cache-Control": "no-store" },
  }),
);

const exportCsv = studioEndpoint(async ({ request, caller }) => {
  const url = new URL(request.url);
  // Checked before the first byte: a bad filter is a 400, never a cut download.
  const { filter } = usageQuery(caller, url);
  return streamedTextResponse(usageCsv(caller, url), "text/csv; charset=utf-8", {
    "Content-Disposition": `attachment; filename="usage-${filter.from}-to-${filter.to}.csv"`,
  });
});

export const usageHandlers = { report, exportCsv };
