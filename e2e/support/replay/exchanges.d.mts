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
export interface ReplaySet {
  name: string;
  title: string;
  dir: string;
}
export const FIXTURE_DIR: string;
export const REPLAY_SETS: ReplaySet[];
export const ALLOW_LIST_FILE: string;
export const OPEN_BUDGET_FILE: string;
export function loadExchanges(file?: string): RecordedExchange[];
export function loadSet(set: ReplaySet): RecordedExchange[];
export function groupExchanges(
  exchanges: RecordedExchange[],
): { group: string; exchanges: RecordedExchange[] }[];
export function isGeneration(operation: string): boolean;
export function isEventStream(exchange: RecordedExchange): boolean;
export function requestedModel(exchange: RecordedExchange): string | null;
