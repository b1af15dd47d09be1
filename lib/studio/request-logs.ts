/**
 * Request logs as `/api/logs` answers them, shared by the Logs page and the server: entries
 * (newest first) and one entry's exchange, a line of the recorded-exchanges format; the
 * logging a key or person asked for.
 */
import { z } from "zod";

export interface RequestLogView {
  id: string;
  at: string;
  operation: string;
  model: string;
  status: number;
  durationMs: number;
  totalTokens: number;
  /** US dollars. */
  cost: number;
  keyId: string;
  keyLabel: string;
  personId: string;
  personLabel: string;
  expiresAt: string;
}

/** One logged exchange (the recorded-exchanges fields this studio writes). */
export interface LoggedExchange {
  id: string;
  operation: string;
  method: string;
  path: string;
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  requestBodyEncoding: "json" | "base64" | "none";
  requestBody?: unknown;
  requestBodyNote?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  responseBodyCut?: boolean;
  cassetteVersion: number;
  responseTiming: { headersMs: number; chunks: Array<[number, number]> };
}

export interface RequestLogDetail extends RequestLogView {
  exchange: LoggedExchange;
}

export interface RequestLogPage {
  entries: RequestLogView[];
  /** Pass as `before` for the next page; absent on the last. */
  nextBefore?: string;
  scope: "everyone" | "own";
}

export const loggingSchema = z.strictObject({
  retentionDays: z.number().int().min(1).max(365),
  includeMedia: z.boolean().default(false),
});
export type Logging = z.infer<typeof loggingSchema>;

export const logSettingChangeSchema = z.strictObject({
  /** `person` (yourself), `key:{id}` (a key of your workspace), `person:{id}` (admins). */
  subject: z.string().min(1).max(120),
  logging: loggingSchema.nullable(),
});

export interface LogSettingsView {
  /** Your own logging (people mode); absent in the single-person modes. */
  person?: Logging | null;
  keys: Array<{ keyId: string; name: string; logging: Logging | null }>;
}
