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
  const milliseconds = Math.floor(epochMilliseconds % 1000);
  // Our clock keeps milliseconds; the microseconds within one are drawn (never below 128,
  // which would shorten the id below the service's 22 characters).
  const microseconds = milliseconds * 1000 + randomInt(milliseconds === 0 ? 128 : 0, 1000);
  const time = Buffer.alloc(4);
  time.writeUInt32LE(seconds >>> 0);
  const bytes = [
    ...time,
    ...varint(microseconds),
    // As in the service's: the first identifier has its top bit set (5 bytes), the second is
    // a 32-bit value of 5 bytes, or 4 below 2^28, so that an id is 16 or 17 bytes long (22 or
    // 23 characters), as all 519 recorded ones are.
    ...varint(randomInt(0x80000000, 0x100000000)),
    ...varint(randomInt(microseconds < 0x4000 ? 0x10000000 : 0x200000, 0x100000000)),
  ];
  return Buffer.from(bytes).toString("base64url");
}
