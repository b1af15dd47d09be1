/**
 * Server-sent events as the service frames them (api-notes §2): every event is exactly one
 * `data: <single-line JSON>` line followed by `\r\n\r\n`, and nothing else (no comment lines:
 * the Python SDK and the legacy JS SDK fail on them); an error after the stream started is
 * sent as `data: {"error": ...}`.
 * Safe in the browser.
 */
import type { ErrorBody } from "./api-error";
import type { GenerateContentResponse } from "./types";

/** The separator after every event. */
export const SSE_EVENT_END = "\r\n\r\n";

/**
 * Frames one value as one SSE event. JSON.stringify never emits a raw line break (they are
 * escaped inside strings), so the event is always a single `data:` line.
 */
export function encodeSseEvent(value: GenerateContentResponse | ErrorBody): string {
  return `data: ${JSON.stringify(value)}${SSE_EVENT_END}`;
}

/** The error object sent after a mid-stream failure, framed as an event (accepted by SDK 2.32+). */
export function encodeSseError(body: ErrorBody): string {
  return encodeSseEvent(body);
}

export type SseMessage =
  { kind: "data"; value: unknown } | { kind: "error"; error: ErrorBody["error"] };

/**
 * Incremental parser for the service's SSE stream: feed text as it arrives, get back the
 * complete events. Comments are skipped; an `{"error": ...}` event (framed, or raw as the real
 * service sends it) is returned as kind "error". Lines other than `data:` are ignored.
 */
export class SseParser {
  private buffer = "";

  /** Adds received text and returns the events completed by it. */
  push(text: string): SseMessage[] {
    this.buffer += text;
    const messages: SseMessage[] = [];
    for (;;) {
      const end = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer);
      if (!end) break;
      const block = this.buffer.slice(0, end.index);
      this.buffer = this.buffer.slice(end.index + end[0].length);
      const message = parseBlock(block);
      if (message) messages.push(message);
    }
    return messages;
  }

  /** Call when the stream ended: returns a trailing raw error object if one is buffered. */
  finish(): SseMessage[] {
    const rest = this.buffer.trim();
    this.buffer = "";
    if (!rest) return [];
    const message = parseBlock(rest);
    return message ? [message] : [];
  }
}

function parseBlock(block: string): SseMessage | null {
  const lines = block.split(/\r\n|\n|\r/);
  const data: string[] = [];
  let raw = "";
  for (const line of lines) {
    if (line.startsWith(":")) continue;
    if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    else if (line.trim()) raw += line;
  }
  const text = data.length ? data.join("\n") : raw;
  if (!text.trim()) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (isErrorBody(value)) return { kind: "error", error: value.error };
  return { kind: "data", value };
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    "error" in value &&
    typeof (value as { error: unknown }).error === "object" &&
    (value as { error: unknown }).error !== null
  );
}

/** Parses a whole SSE body (tests, recorded fixtures). */
export function parseSseText(text: string): SseMessage[] {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.finish()];
}
