/** Types of compared-operations.mjs (which recorded operations the replay compares). */
import type { RecordedExchange } from "./exchanges.mjs";
export const COMPARED_OPERATIONS: Set<string>;
export function isCompared(exchange: RecordedExchange): boolean;
