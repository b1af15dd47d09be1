/** Types of run.mjs (fuzz runs and the health check). */
import type { FuzzRequest } from "./client.mjs";
import type { FuzzWorld } from "./world.mjs";
export interface FuzzReport {
  sent: number;
  answered: number;
  statuses: Record<string, number>;
  byEndpoint: Record<string, Record<string, number>>;
  timing: Record<string, { count: number; meanMs: number; maxMs: number }>;
  fiveHundreds: number;
  hangs: number;
  dropped: number;
  clientRefused: number;
  /** Requests sent again on a fresh connection after a reset on a reused (possibly stale) one. */
  staleConnectionRetries: number;
  problems: { problem: string; request: object }[];
  slowest: { ms: number; label: string };
  ms: number;
}
export interface FuzzOptions {
  baseUrl: string;
  world: FuzzWorld;
  runs: number;
  seed?: number;
  concurrency?: number;
  timeoutMs?: number;
  secrets?: string[];
  keepProblems?: number;
  /** assertFuzz only: stop generating after this long (what ran still counts). */
  timeLimitMs?: number;
  onProgress?: (report: FuzzReport) => void;
  progressEvery?: number;
  /** sampleFuzz only: the requests to draw from (default: every endpoint's). */
  arbitrary?: import("fast-check").Arbitrary<FuzzRequest>;
}
export function printable(request: FuzzRequest): object;
export function sampleFuzz(options: FuzzOptions): Promise<FuzzReport>;
export function assertFuzz(options: FuzzOptions): Promise<FuzzReport>;
export function healthProblems(baseUrl: string, key: string): Promise<string[]>;
export function logFailures(log: string): string[];
