/** Types of run.mjs (the replay conformance run). */
import type { RecordedExchange } from "./exchanges.mjs";
export interface Verdict {
  applies: boolean;
  problems: string[];
  explained?: { problem: string; reason: string }[];
  open?: string[];
  expected?: number | string;
  actual?: number | string;
  signatures?: { count: number; thinking: number; unknown: boolean; callArguments: number };
}
export interface Judged {
  exchange: RecordedExchange;
  outsideResources?: string[];
  refusedSince?: boolean;
  /** The engine answered as the model this alias pointed at in another recording (or its recorded model is retired). */
  aliasMoved?: boolean;
  /** The service answered this model with thinking in this recording, where the model does not think. */
  servedByAnotherModel?: boolean;
  ms: number;
  verdicts: Record<string, Verdict | undefined>;
}
export interface Figure {
  applicable: number;
  passed: number;
  explained: number;
  open: number;
}
export interface AllowList {
  entries: {
    category: string;
    reason: string;
    ids?: string[];
    rule?: string;
    fields?: string[];
    targets?: string[];
  }[];
}
export interface Conformance {
  judged: Judged[];
  stale: { category: string; id: string; reason: string }[];
  /** The rule entries (`category:rule`) that explained something in this run. */
  usedRules: Set<string>;
  table: Record<string, Figure>;
  /** Operations replayed but not compared yet: exchanges, and how many got the service's status. */
  uncompared: [string, { exchanges: number; sameStatus: number }][];
  elapsedMs: number;
}
export const CATEGORIES: [string, string][];
export function conformance(options: {
  baseUrl: string;
  key: string;
  exchanges: RecordedExchange[];
  allowList: AllowList;
  target: "local" | "gateway";
  onGroup?: (group: string) => void;
  formatSource?: RecordedExchange[];
}): Promise<Conformance>;
export function formatFigures(
  title: string,
  table: Record<string, Figure>,
  elapsedMs: number,
  uncompared?: Conformance["uncompared"],
): string;
export function commonProblems(
  judged: Judged[],
  category: string,
  limit?: number,
): [string, number][];
