import "server-only";
import { parseErrorBody } from "@/lib/gemini/api-error";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import {
  errorFromTransport,
  malformedUpstream,
  type Scrubber,
  type TimeoutSettings,
} from "./upstream-errors";

/**
 * Reads the upstream's `text/event-stream` body event by event, as bytes arrive, and yields
 * each chunk the moment its event is complete (no buffering beyond one event). Strict where
 * the official SDK is lenient, because a gateway must not hide a broken upstream: a `data:`
 * line that is not JSON, an error object (framed or raw, as the service sends it), a lost
 * connection, an idle timeout, or a stream that ends without any finishReason all end the
 * iteration with an ApiError after the good chunks, so the client keeps its partial output.
 */

const EVENT_END = /\r\n\r\n|\n\n|\r\r/;
/** One event larger than this is not an event: the upstream is broken or hostile. */
const MAX_EVENT_BYTES = 64 * 1024 * 1024;

function finished(chunk: GenerateContentResponse): boolean {
  if (chunk.promptFeedback?.blockReason) return true;
  return (chunk.candidates ?? []).some(
    (candidate) =>
      candidate.finishReason !== undefined &&
      candidate.finishReason !== "FINISH_REASON_UNSPECIFIED",
  );
}

function parseBlock(block: string, scrub: Scrubber): GenerateContentResponse | null {
  const data: string[] = [];
  let raw = "";
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === "" || line.startsWith(":")) continue;
    if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    else if (/^(event|id|retry):/.test(line)) continue;
    else raw += line;
  }
  const text = data.length > 0 ? data.join("\n") : raw;
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformedUpstream("a malformed event in its stream");
  }
  const error = parseErrorBody(value);
  if (error) {
    throw Object.assign(error, { message: scrub(error.message) });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw malformedUpstream("an event that is not a response chunk");
  }
  return value as GenerateContentResponse;
}

/** Yields the chunks of an upstream SSE body; see the module comment for how it fails. */
export async function* readUpstreamEvents(
  body: AsyncIterable<Buffer | string>,
  options: { scrub: Scrubber; timeouts: TimeoutSettings },
): AsyncGenerator<GenerateContentResponse> {
  const decoder = new TextDecoder("utf-8");
  let buffer = "";
  let sawFinish = false;
  try {
    for await (const piece of body) {
      buffer += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
      for (;;) {
        const end = EVENT_END.exec(buffer);
        if (!end) break;
        const block = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        const chunk = parseBlock(block, options.scrub);
        if (chunk) {
          sawFinish ||= finished(chunk);
          yield chunk;
        }
      }
      if (buffer.length > MAX_EVENT_BYTES)
        throw malformedUpstream("an event larger than the gateway accepts");
    }
  } catch (error) {
    throw errorFromTransport(error, options.timeouts);
  }
  buffer += decoder.decode();
  const last = parseBlock(buffer, options.scrub);
  if (last) {
    sawFinish ||= finished(last);
    yield last;
  }
  if (!sawFinish) throw malformedUpstream("a stream that ended before the response was complete");
}
