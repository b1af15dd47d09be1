/** Types of replay-upstream.mjs (the service's recorded answers, served to a gateway). */
import type { RecordedExchange } from "./exchanges.mjs";
export interface ReplayUpstream {
  url: string;
  useGroup(group: string): void;
  unmatched: { group: string | null; method?: string; path: string; operation: string | null }[];
  answeredIds: string[];
  close(): Promise<void>;
}
export function operationOf(
  method: string,
  pathname: string,
  query: URLSearchParams,
): string | null;
export function startReplayUpstream(options: {
  exchanges: RecordedExchange[];
}): Promise<ReplayUpstream>;
