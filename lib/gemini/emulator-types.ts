/**
 * The emulator surface's answers (`/emulator/scenarios`, `/emulator/requests`) as the server
 * sends them and the studio's emulator page reads them. Browser-safe.
 */
import type { UsageMetadata } from "./types";

/** A scenario as the surface shows it, with the caller's count of calls. */
export interface ScenarioView {
  id: string;
  source: "caller" | "instance";
  name?: string;
  match: Record<string, unknown>;
  respond: unknown;
  times?: number;
  /** Requests it answered for this caller. */
  calls: number;
  /** Requests it will still answer for this caller (absent: unlimited). */
  remaining?: number;
}

/** A body as logged: its text up to the cap (binary bodies only by size). */
export interface LoggedBody {
  contentType?: string;
  /** UTF-8 text of the first bytes; absent for binary bodies. */
  text?: string;
  bytes: number;
  truncated: boolean;
}

export interface RequestLogEntry {
  id: string;
  /** When the request arrived (RFC 3339). */
  time: string;
  method: string;
  /** The path and query as received, without any `key` parameter. */
  path: string;
  operation: string;
  model?: string;
  status: number;
  /** Milliseconds from arrival to the first byte of the answer, and to its end. */
  firstByteMs?: number;
  durationMs: number;
  scenarioId?: string;
  scenarioName?: string;
  /** The recorded exchange that answered, when a cassette did. */
  replayedFrom?: string;
  usage?: UsageMetadata;
  request: LoggedBody;
  response: LoggedBody;
  /** How the answer ended when not whole: the client went away, or a scripted reset. */
  ended?: "client-closed" | "reset";
}
