/**
 * Server-sent events as the service frames them (api-notes §2): every event is exactly one
 * `data: <single-line JSON>` line followed by `\r\n\r\n`, and nothing else (no comment lines:
 * the Python SDK and the legacy JS SDK fail on them); an error after the stream started is
 * sent as `data: {"error": ...}`. Reading: `SseReader`, the one parser every reader of a
 * stream uses (the browser client, the gateway's upstream reader, the tests), built on
 * eventsource-parser. Safe in the browser.
 */
import { createParser, type EventSourceParser } from "eventsource-parser";
import type { ErrorBody } from "./api-error";
import type { GenerateContentResponse } from "./types";

/** The separator after every event. */
export const SSE_EVENT_END = "\r\n\r\n";

/**
 * Frames one value as one SSE event. JSON.stringify never emits a raw line break (they are
 * escaped inside strings), so the event is always a single `data:` line.
 */
export function encodeSseEvent(value: GenerateContentResponse | ErrorBody | object): string {
  return `data: ${JSON.stringify(value)}${SSE_EVENT_END}`;
}

/** The error object sent after a mid-stream failure, framed as an event (accepted by SDK 2.32+). */
export function encodeSseError(body: ErrorBody): string {
  return encodeSseEvent(body);
}

/** One thing read from a stream, with the text it was read from. */
export type SseMessage =
  /** A `data:` event holding a JSON value that is not an error object. */
  | { kind: "data"; value: unknown; text: string }
  /**
   * A `data:` event longer than the reader's `parseUpTo`, left for the caller to parse (in
   * slices, or off its thread): the text is the event's data, not yet known to be JSON.
   */
  | { kind: "long-data"; text: string }
  /** An error object: a `data:` event, or the raw JSON the real service writes mid-stream. */
  | { kind: "error"; error: ErrorBody["error"]; text: string }
  /**
   * Something that is no event of this API: an event whose data is not JSON, an event (or
   * raw text) larger than the reader accepts, or text outside the SSE grammar that is not
   * an error object. Nothing is read after a `too-large`.
   */
  | { kind: "invalid"; reason: "not-json" | "too-large" | "stray-text"; text: string };

export interface SseReaderOptions {
  /** Most characters one event (or one raw object) may hold; unlimited when absent. */
  maxEventCharacters?: number;
  /** Longest event data parsed here; a longer one is answered as `long-data`. Unlimited when absent. */
  parseUpTo?: number;
}

/** An error object (`{"error": {...}}`), as the service sends one mid-stream. */
export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    "error" in value &&
    typeof (value as { error: unknown }).error === "object" &&
    (value as { error: unknown }).error !== null
  );
}

/** An event's data read as what it holds: a value, an error object, or not JSON. */
export function decodeSseData(text: string): SseMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "invalid", reason: "not-json", text };
  }
  if (isErrorBody(value)) return { kind: "error", error: value.error, text };
  return { kind: "data", value, text };
}

/**
 * Lines outside the SSE grammar, as the real service writes its mid-stream error (a JSON
 * object, perhaps pretty-printed over several lines, perhaps inside `[...]`). Each character
 * is looked at once: braces are counted outside strings, and only a complete object is
 * parsed, so no amount of stray text makes the reading slower than linear.
 */
class RawObjects {
  private text = "";
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxCharacters: number) {}

  /** Reads one raw line; answers what it completed. */
  line(line: string, found: SseMessage[]): void {
    for (const character of `${line}\n`) {
      if (this.depth === 0) {
        if (character === "{") {
          this.depth = 1;
          this.text = "{";
        } else if (!/[\s[\],]/.test(character)) {
          found.push({ kind: "invalid", reason: "stray-text", text: line.slice(0, 200) });
          return;
        }
        continue;
      }
      this.text += character;
      if (this.text.length > this.maxCharacters) {
        found.push({ kind: "invalid", reason: "too-large", text: "" });
        this.reset();
        return;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (character === "\\") this.escaped = true;
        else if (character === '"') this.inString = false;
      } else if (character === '"') this.inString = true;
      else if (character === "{" || character === "[") this.depth++;
      else if (character === "}" || character === "]") {
        this.depth--;
        if (this.depth === 0) {
          // Only an error object may stand outside an event; any other JSON there is stray.
          const message = decodeSseData(this.text);
          found.push(
            message.kind === "error"
              ? message
              : { kind: "invalid", reason: "stray-text", text: this.text.slice(0, 200) },
          );
          this.reset();
        }
      }
    }
  }

  /** True while an object has begun and not ended. */
  get open(): boolean {
    return this.depth > 0;
  }

  private reset(): void {
    this.text = "";
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }
}

/**
 * Incremental, linear-time reader of the service's SSE stream: feed text as it arrives, get
 * back what it completed. Line ends are made `\n` before eventsource-parser sees them (its
 * search for `\r` rescans the rest of a piece for every line, which a hostile stream of
 * lines with one `\r` at the end makes quadratic); a `\r\n` cut between two pieces is kept
 * as one line end. Comments, `event:`, `id:` and `retry:` lines are skipped.
 */
export class SseReader {
  private readonly parser: EventSourceParser;
  private readonly raw: RawObjects;
  private found: SseMessage[] = [];
  private carriageReturn = false;
  private stopped = false;

  constructor(options: SseReaderOptions = {}) {
    const limit = options.maxEventCharacters ?? Number.POSITIVE_INFINITY;
    const parseUpTo = options.parseUpTo ?? Number.POSITIVE_INFINITY;
    this.raw = new RawObjects(limit);
    this.parser = createParser({
      ...(options.maxEventCharacters !== undefined
        ? { maxBufferSize: options.maxEventCharacters }
        : {}),
      onEvent: (event) =>
        this.found.push(
          event.data.length > parseUpTo
            ? { kind: "long-data", text: event.data }
            : decodeSseData(event.data),
        ),
      onError: (error) => {
        if (error.type === "max-buffer-size-exceeded") {
          this.stopped = true;
          this.found.push({ kind: "invalid", reason: "too-large", text: "" });
        } else if (error.type === "unknown-field" && error.line !== undefined) {
          this.raw.line(error.line, this.found);
        }
      },
    });
  }

  /** Adds received text; answers the messages it completed, in order. */
  feed(text: string): SseMessage[] {
    if (this.stopped) return this.take();
    let piece = text;
    if (this.carriageReturn && piece.startsWith("\n")) piece = piece.slice(1);
    if (piece !== "") this.carriageReturn = piece.endsWith("\r");
    if (piece.includes("\r")) piece = piece.replace(/\r\n?/g, "\n");
    this.parser.feed(piece);
    return this.take();
  }

  /** Call once the stream has ended: answers a last event sent without its blank line, and what is left over. */
  end(): SseMessage[] {
    const last = this.feed("\n\n");
    if (!this.stopped && this.raw.open)
      last.push({ kind: "invalid", reason: "stray-text", text: "an unfinished JSON object" });
    this.stopped = true;
    return last;
  }

  private take(): SseMessage[] {
    const found = this.found;
    this.found = [];
    return found;
  }
}

/** Reads a whole SSE body (tests, recorded fixtures). */
export function parseSseText(text: string): SseMessage[] {
  const reader = new SseReader();
  return [...reader.feed(text), ...reader.end()];
}
