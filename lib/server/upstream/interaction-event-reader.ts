import "server-only";
import type { InteractionEvent } from "@/lib/gemini/interactions/types";
import { SseReader, type SseMessage } from "@/lib/gemini/sse";
import { MAX_EVENT_CHARACTERS } from "./sse-reader";
import type { Scrubber } from "../config/scrubber";
import { scrubbedJson, SLICED_JSON_CHARACTERS } from "./scrubbed-json";
import { errorFromTransport, malformedUpstream, type TimeoutSettings } from "./upstream-errors";

/**
 * Reads an upstream Interactions stream (`event: <type>` / `data: <JSON>` blocks ending with
 * `data: [DONE]`) with the one SSE reader, yielding each event, scrubbed, the moment it is
 * complete: nothing is held beyond one event. Its `error` events pass through as events. A
 * `data:` that is not a JSON object, text outside the SSE grammar, a lost connection, an idle
 * timeout or a stream that ends before `[DONE]` end the iteration with the gateway's error
 * after the good events.
 */

const DONE = "[DONE]";

type Read = { event: InteractionEvent } | "done";

function eventOf(value: unknown): InteractionEvent {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw malformedUpstream("an event that is not an interaction event");
  return value as InteractionEvent;
}

async function readMessage(message: SseMessage, scrub: Scrubber): Promise<Read> {
  switch (message.kind) {
    case "data":
      return { event: scrub.json(eventOf(message.value)) };
    case "error":
      // This API's own error event: `{"error": {...}, "event_type": "error"}`.
      return { event: scrub.json(eventOf(JSON.parse(message.text))) };
    case "long-data":
      return {
        event: eventOf(
          await scrubbedJson<unknown>([message.text], scrub, "a malformed event in its stream"),
        ),
      };
    case "invalid":
      if (message.reason === "not-json" && message.text.trim() === DONE) return "done";
      throw malformedUpstream(
        message.reason === "too-large"
          ? "an event larger than the gateway accepts"
          : "a malformed event in its stream",
      );
  }
}

export async function* readUpstreamInteractionEvents(
  body: AsyncIterable<Buffer | string>,
  options: { scrub: Scrubber; timeouts: TimeoutSettings },
): AsyncGenerator<InteractionEvent> {
  const decoder = new TextDecoder("utf-8");
  const reader = new SseReader({
    maxEventCharacters: MAX_EVENT_CHARACTERS,
    parseUpTo: SLICED_JSON_CHARACTERS,
  });
  const read = async function* (messages: SseMessage[]): AsyncGenerator<InteractionEvent, boolean> {
    for (const message of messages) {
      const next = await readMessage(message, options.scrub);
      if (next === "done") return true;
      yield next.event;
    }
    return false;
  };
  try {
    for await (const piece of body) {
      const text = typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
      if (yield* read(reader.feed(text))) return;
    }
  } catch (error) {
    throw errorFromTransport(error, options.timeouts);
  }
  if (yield* read([...reader.feed(decoder.decode()), ...reader.end()])) return;
  throw malformedUpstream("a stream that ended before it was complete");
}
