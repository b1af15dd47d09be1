/**
 * What the body reader worker answers for a JSON text, made by the worker's own function in
 * this thread: for tests that look at what the request's thread would receive.
 */
import { answerBodyReaderRequest, type BodyReaderName } from "@/lib/server/http/body-readers";

type Reply = ReturnType<typeof answerBodyReaderRequest>;

/** The worker's answer for `text` sent as one piece of bytes; it must be a value. */
export function bodyReaderValue(
  text: string,
  reader: BodyReaderName = "generateContent",
): Extract<Reply, { kind: "value" }> {
  const bytes = new TextEncoder().encode(text);
  const reply = answerBodyReaderRequest({ id: 1, reader, bytes: [bytes], size: bytes.length });
  if (reply.kind !== "value") throw new Error(`not read: ${reply.kind}`);
  return reply;
}

/** The length of the longest string anywhere in `value` (keys included; bytes are not strings). */
export function longestString(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) return 0;
  let longest = 0;
  for (const [key, item] of Object.entries(value))
    longest = Math.max(longest, key.length, longestString(item));
  return longest;
}
