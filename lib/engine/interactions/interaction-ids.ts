/**
 * Interaction ids in the service's format: `v1_` and the base64url (unpadded) of two
 * length-prefixed strings, as protobuf fields 1 and 2. Decoded, every recorded id holds two
 * response-id-like strings (22 or 23 characters): field 2 the interaction's own, field 1 the
 * first interaction of its conversation (equal to field 2 for a fresh one, the previous
 * interaction's field 1 when chained; recorded by braintrust's cassettes of 2026-06 and -07).
 * Ours are built the same way from our response ids, of 23 characters as every recorded one's
 * are (so ids are 70 characters long). Event ids are the position of the event in the
 * interaction's stream, opaque to clients.
 */
import { newResponseId } from "../generate/response-id";

const PREFIX = "v1_";

function field(tag: number, text: string): Buffer {
  const bytes = Buffer.from(text, "latin1");
  return Buffer.concat([Buffer.from([tag, bytes.length]), bytes]);
}

/** The conversation root of an id of ours, or null for any other text. */
export function conversationRootOf(id: string): string | null {
  if (!id.startsWith(PREFIX)) return null;
  const bytes = Buffer.from(id.slice(PREFIX.length), "base64url");
  if (bytes.length < 4 || bytes[0] !== 0x0a) return null;
  const rootLength = bytes[1]!;
  if (2 + rootLength + 2 > bytes.length || bytes[2 + rootLength] !== 0x12) return null;
  return bytes.subarray(2, 2 + rootLength).toString("latin1");
}

/** A response id of 23 characters (about half of them are; the others 22). */
function ownId(): string {
  for (;;) {
    const id = newResponseId();
    if (id.length === 23) return id;
  }
}

/** A new interaction id, in the conversation of `previousId` when it continues one. */
export function newInteractionId(previousId?: string): string {
  const own = ownId();
  const root = (previousId && conversationRootOf(previousId)) || own;
  return PREFIX + Buffer.concat([field(0x0a, root), field(0x12, own)]).toString("base64url");
}

const EVENT_PREFIX = "evt_";

/** The event id of the event at `position` of a stream. */
export function eventId(position: number): string {
  return `${EVENT_PREFIX}${position.toString(36)}`;
}

/** The position an event id names, or null when it is no event id of ours. */
export function eventPosition(id: string): number | null {
  if (!id.startsWith(EVENT_PREFIX) || id.length > EVENT_PREFIX.length + 10) return null;
  const digits = id.slice(EVENT_PREFIX.length);
  if (!/^[0-9a-z]+$/.test(digits)) return null;
  const position = Number.parseInt(digits, 36);
  return Number.isSafeInteger(position) ? position : null;
}
