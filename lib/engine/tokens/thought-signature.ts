/**
 * Thought signatures the local engine hands out, and what one counts when sent back: the
 * service counts a signature as the thinking it stands for (recorded on 3.x: a call's signature
 * sent back in history adds exactly the thoughtsTokenCount of the answer that made it). Its own
 * signatures are encrypted, so a service-made signature counts nothing here (known, listed in
 * the replay's allow-list); the engine's carry their thinking's size.
 */
import { randomBytes } from "node:crypto";
import { hashString } from "@/lib/gemini/hash-string";

const MAGIC = [0x67, 0x73, 0x74, 0x31]; // "gst1"
const RANDOM_BYTES = 32;
const LENGTH = MAGIC.length + 4 + RANDOM_BYTES + 4;

/** An opaque signature for an answer that thought `thoughtTokens` tokens. */
export function makeThoughtSignature(thoughtTokens: number): string {
  const bytes = Buffer.alloc(LENGTH);
  bytes.set(MAGIC, 0);
  bytes.writeUInt32BE(Math.max(0, Math.min(0xffffffff, Math.round(thoughtTokens))), 4);
  randomBytes(RANDOM_BYTES).copy(bytes, 8);
  bytes.writeUInt32BE(checksum(bytes.subarray(0, LENGTH - 4)), LENGTH - 4);
  return bytes.toString("base64");
}

/** The thinking a signature stands for: the count the engine put in it, else 0. */
export function thoughtSignatureTokens(signature: string): number {
  if (signature.length !== Math.ceil(LENGTH / 3) * 4) return 0;
  const bytes = Buffer.from(signature, "base64");
  if (bytes.length !== LENGTH || MAGIC.some((byte, index) => bytes[index] !== byte)) return 0;
  if (bytes.readUInt32BE(LENGTH - 4) !== checksum(bytes.subarray(0, LENGTH - 4))) return 0;
  return bytes.readUInt32BE(4);
}

function checksum(bytes: Uint8Array): number {
  return hashString(Buffer.from(bytes).toString("latin1"));
}
