/**
 * Each caller's recent requests to the local engine, for tests that assert what their client
 * sent and for the studio's emulator page: the request as received (its body's first bytes),
 * the answer's status, first bytes and usage, the timing, and the scenario that answered.
 * Bounded: the newest `maxEntries` per caller, each body cut at `maxBodyBytes`. In memory.
 */
import { randomBytes } from "node:crypto";
import type { RequestLogEntry } from "@/lib/gemini/emulator-types";

export type { LoggedBody, RequestLogEntry } from "@/lib/gemini/emulator-types";
import { operationMatches } from "./operations";

export interface RequestLogQuery {
  /** An operation or group name (`generateContent`, `stream`, `files`). */
  operation?: string;
  model?: string;
  /** Only requests that arrived at or after this time (ms since the epoch). */
  since?: number;
  /** The newest this many (default all kept). */
  limit?: number;
}

export interface RequestLogOptions {
  maxEntries?: number;
  maxBodyBytes?: number;
}

export const DEFAULT_LOG_ENTRIES = 500;
export const DEFAULT_LOG_BODY_BYTES = 32 * 1024;

export class RequestLog {
  readonly maxEntries: number;
  readonly maxBodyBytes: number;
  private readonly entries = new Map<string, RequestLogEntry[]>();

  constructor(options: RequestLogOptions = {}) {
    this.maxEntries = options.maxEntries ?? DEFAULT_LOG_ENTRIES;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_LOG_BODY_BYTES;
  }

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  static newId(): string {
    return `req_${randomBytes(6).toString("hex")}`;
  }

  add(ownerId: string, entry: RequestLogEntry): void {
    if (!this.enabled) return;
    let list = this.entries.get(ownerId);
    if (!list) this.entries.set(ownerId, (list = []));
    list.push(entry);
    // Dropped in batches: a shift per request would copy the whole list each time.
    if (list.length > this.maxEntries * 1.25) list.splice(0, list.length - this.maxEntries);
  }

  /** The caller's entries that pass the query, oldest first. */
  list(ownerId: string, query: RequestLogQuery = {}): RequestLogEntry[] {
    const list = (this.entries.get(ownerId) ?? []).slice(-this.maxEntries);
    const found = list.filter(
      (entry) =>
        (query.operation === undefined || operationMatches(query.operation, entry.operation)) &&
        (query.model === undefined || entry.model === query.model.replace(/^models\//, "")) &&
        (query.since === undefined || Date.parse(entry.time) >= query.since),
    );
    return query.limit === undefined ? found : found.slice(-query.limit);
  }

  get(ownerId: string, id: string): RequestLogEntry | undefined {
    return this.entries.get(ownerId)?.find((entry) => entry.id === id);
  }

  clear(ownerId: string): void {
    this.entries.delete(ownerId);
  }
}
