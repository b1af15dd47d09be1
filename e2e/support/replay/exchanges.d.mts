/** Types of exchanges.mjs (the recorded exchanges of the real service). */
export interface RecordedExchange {
  id: string;
  group: string;
  source: { repo: string; commit: string; path: string; index: number };
  operation: string;
  method: string;
  path: string;
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  requestBodyEncoding: "json" | "base64" | "none";
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
}
export const FIXTURE_DIR: string;
export function loadExchanges(file?: string): RecordedExchange[];
export function groupExchanges(
  exchanges: RecordedExchange[],
): { group: string; exchanges: RecordedExchange[] }[];
export function isGeneration(operation: string): boolean;
export function requestedModel(exchange: RecordedExchange): string | null;
