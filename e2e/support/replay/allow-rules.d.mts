/** Types of allow-rules.mjs (the replay allow-list's rules). */
import type { RecordedExchange } from "./exchanges.mjs";
export const ALLOW_RULES: Record<string, (context: Record<string, unknown>) => boolean>;
export function hasOutsideUrl(exchange: RecordedExchange): boolean;
