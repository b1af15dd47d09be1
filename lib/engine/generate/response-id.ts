/**
 * `responseId` in the service's format. Decoded, the service's ids are a little event record:
 * the unix time in seconds (4 bytes, little-endian), the microseconds as a varint, then two
 * varints of about 32 bits each (its server's own identifiers), base64url without padding:
 * 16 or 17 bytes, so 22 or 23 characters. Ours are built the same way with random
 * identifiers, so they read like the service's (and carry the time they were made).
 */
import { randomInt } from "node:crypto";

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** A new response id for an answer created at `epochMilliseconds` (now by default). */
export function newResponseId(epochMilliseconds: number = Date.now()): string {
  const seconds = Math.floor(epochMilliseconds / 1000);
  const microseconds = Math.floor((epochMilliseconds % 1000) * 1000) + randomInt(1000);
  const time = Buffer.alloc(4);
  time.writeUInt32LE(seconds >>> 0);
  const bytes = [
    ...time,
    ...varint(microseconds),
    // As in the service's: the first identifier has its top bit set (5 bytes), the second is
    // a 32-bit value of 5 bytes, or 4 below 2^28 (never fewer in 519 recorded ids).
    ...varint(randomInt(0x80000000, 0x100000000)),
    ...varint(randomInt(0x200000, 0x100000000)),
  ];
  return Buffer.from(bytes).toString("base64url");
}
