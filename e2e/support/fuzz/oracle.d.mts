/** Types of oracle.mjs (what every answer must satisfy). */
import type { FuzzAnswer, FuzzFailure, FuzzRequest } from "./client.mjs";
export const RPC_HTTP_STATUS: Record<string, number>;
export function rpcStatusesFor(httpStatus: number): string[];
export function errorBodyProblems(text: string, httpStatus: number, listed?: boolean): string[];
export function checkExchange(
  request: FuzzRequest,
  answer: FuzzAnswer | FuzzFailure,
  options?: { secrets?: string[] },
): string[];
