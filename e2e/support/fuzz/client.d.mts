/** Types of client.mjs (the fuzzer's raw HTTP client). */
export interface FuzzRequest {
  method: string;
  /** Raw request target: path and query, sent exactly as given. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Which endpoint generator made it (for reports). */
  label: string;
}
export interface FuzzAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  ms: number;
}
export interface FuzzFailure {
  failure: "timeout" | "connection" | "client";
  message: string;
  ms: number;
}
export interface FuzzClient {
  /** `retried`: a reset before the headers on a reused connection made the request go out again on a fresh one. */
  send(
    request: FuzzRequest,
    options?: { timeoutMs?: number },
  ): Promise<(FuzzAnswer | FuzzFailure) & { retried?: true }>;
  close(): Promise<void>;
  destroy(): Promise<void>;
}
export function createFuzzClient(baseUrl: string, options?: { connections?: number }): FuzzClient;
