import "server-only";
import { parseErrorBody } from "@/lib/gemini/api-error";
import { isErrorBody, SseReader, type SseMessage } from "@/lib/gemini/sse";
import type { ErrorBody } from "@/lib/gemini/api-error";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import type { Scrubber } from "../config/scrubber";
import { scrubbedJson, SLICED_JSON_CHARACTERS } from "./scrubbed-json";
import { errorFromTransport, malformedUpstream, type TimeoutSettings } from "./upstream-errors";

/**
 * Reads the upstream's `text/event-stream` body with the one SSE reader (lib/gemini/sse), as
 * bytes arrive, and yields each chunk the moment its event is complete (no buffering beyond
 * one event, at most MAX_EVENT_CHARACTERS). Strict where the official SDK is lenient,
 * because a gateway must not hide a broken upstream: a `data:` event that is not JSON, an
 * event too large, text outside the SSE grammar, an error object (framed or raw, as the
 * service sends it), a lost connection, an idle timeout, or a stream that ends without any
 * finishReason all end the iteration with an ApiError after the good chunks, so the client
 * keeps its partial output. Every chunk and error is scrubbed of the server key and the
 * upstream's address, and the text across events too (StreamTexts).
 */

/** One event larger than this is not an event: the upstream is broken or hostile. */
export const MAX_EVENT_CHARACTERS = 64 * 1024 * 1024;

function finished(chunk: GenerateContentResponse): boolean {
  if (chunk.promptFeedback?.blockReason) return true;
  return (chunk.candidates ?? []).some(
    (candidate) =>
      candidate.finishReason !== undefined &&
      candidate.finishReason !== "FINISH_REASON_UNSPECIFIED",
  );
}

/** A response chunk, or the upstream's error for a value that is none. */
function responseChunk(value: unknown): GenerateContentResponse {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw malformedUpstream("an event that is not a response chunk");
  return value as GenerateContentResponse;
}

function upstreamError(body: ErrorBody["error"], scrub: Scrubber): never {
  const error = parseErrorBody({ error: body });
  if (!error) throw malformedUpstream("an error object without a code and a message");
  throw Object.assign(error, { message: scrub.text(error.message) });
}

/** The chunk an event holds, or the error it stands for. */
async function chunkOf(message: SseMessage, scrub: Scrubber): Promise<GenerateContentResponse> {
  switch (message.kind) {
    case "data":
      return scrub.json(responseChunk(message.value));
    case "long-data": {
      // Megabytes (an image, or a hostile upstream): scrubbed and parsed in slices.
      const malformed = "a malformed event in its stream";
      if (message.text.trim() === "") throw malformedUpstream(malformed);
      const value = await scrubbedJson<unknown>([message.text], scrub, malformed);
      if (isErrorBody(value)) upstreamError(value.error, scrub);
      return responseChunk(value);
    }
    case "error":
      return upstreamError(message.error, scrub);
    case "invalid":
      throw malformedUpstream(
        message.reason === "too-large"
          ? "an event larger than the gateway accepts"
          : message.reason === "not-json"
            ? "a malformed event in its stream"
            : "text that is not an event in its stream",
      );
  }
}

/**
 * The text of a stream scrubbed across its events: a client joins each candidate's text
 * deltas (its thoughts apart), so a secret split between two events is one again there.
 * Each text goes through the scrubber's `deltas`; what it holds back is added to the
 * candidate's last event (the one with its finishReason), or sent as an event of its own when
 * the stream ends or breaks before.
 */
class StreamTexts {
  private readonly texts = new Map<string, ReturnType<Scrubber["deltas"]>>();

  constructor(private readonly scrub: Scrubber) {}

  private text(index: number, thought: boolean) {
    const key = `${index}:${thought}`;
    let text = this.texts.get(key);
    if (!text) this.texts.set(key, (text = this.scrub.deltas()));
    return text;
  }

  /** The held text of one candidate, as parts (thoughts first). */
  private restOf(index: number): { text: string; thought?: boolean }[] {
    const parts: { text: string; thought?: boolean }[] = [];
    for (const thought of [true, false]) {
      const rest = this.texts.get(`${index}:${thought}`)?.end() ?? "";
      if (rest !== "") parts.push(thought ? { text: rest, thought } : { text: rest });
    }
    return parts;
  }

  chunk(chunk: GenerateContentResponse): GenerateContentResponse {
    (chunk.candidates ?? []).forEach((candidate, position) => {
      const index = candidate.index ?? position;
      for (const part of candidate.content?.parts ?? [])
        if (typeof part.text === "string")
          part.text = this.text(index, part.thought === true).push(part.text);
      if (candidate.finishReason === undefined) return;
      const rest = this.restOf(index);
      if (rest.length === 0) return;
      candidate.content ??= { role: "model", parts: [] };
      candidate.content.parts ??= [];
      candidate.content.parts.push(...rest);
    });
    return chunk;
  }

  /** What is still held, as a last event; null when nothing is. */
  rest(): GenerateContentResponse | null {
    const indexes = new Set([...this.texts.keys()].map((key) => Number(key.split(":")[0])));
    const candidates = [...indexes]
      .map((index) => ({ index, parts: this.restOf(index) }))
      .filter((candidate) => candidate.parts.length > 0)
      .map(({ index, parts }) => ({ index, content: { role: "model", parts } }));
    return candidates.length ? { candidates } : null;
  }
}

/** Yields the chunks of an upstream SSE body; see the module comment for how it fails. */
export async function* readUpstreamEvents(
  body: AsyncIterable<Buffer | string>,
  options: { scrub: Scrubber; timeouts: TimeoutSettings },
): AsyncGenerator<GenerateContentResponse> {
  const decoder = new TextDecoder("utf-8");
  const reader = new SseReader({
    maxEventCharacters: MAX_EVENT_CHARACTERS,
    parseUpTo: SLICED_JSON_CHARACTERS,
  });
  const texts = new StreamTexts(options.scrub);
  let sawFinish = false;
  try {
    for await (const piece of body) {
      const text = typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
      for (const message of reader.feed(text)) {
        const chunk = texts.chunk(await chunkOf(message, options.scrub));
        sawFinish ||= finished(chunk);
        yield chunk;
      }
    }
    for (const message of [...reader.feed(decoder.decode()), ...reader.end()]) {
      const chunk = texts.chunk(await chunkOf(message, options.scrub));
      sawFinish ||= finished(chunk);
      yield chunk;
    }
  } catch (error) {
    const rest = texts.rest();
    if (rest) yield rest;
    throw errorFromTransport(error, options.timeouts);
  }
  const rest = texts.rest();
  if (rest) yield rest;
  if (!sawFinish) throw malformedUpstream("a stream that ended before the response was complete");
}
