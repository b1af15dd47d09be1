import "server-only";
import { createHash, hash, timingSafeEqual } from "node:crypto";

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

function sha256(value: string): Buffer {
  return hash("sha256", value, "buffer");
}

/**
 * Digests of the expected secrets (the configured keys, access code, metrics token: a few
 * that never change while the process runs), so a request hashes only what it presented.
 */
const expectedDigests = new Map<string, Buffer>();
const MAX_EXPECTED = 256;

function expectedDigest(expected: string): Buffer {
  let digest = expectedDigests.get(expected);
  if (digest === undefined) {
    digest = sha256(expected);
    if (expectedDigests.size >= MAX_EXPECTED) expectedDigests.clear();
    expectedDigests.set(expected, digest);
  }
  return digest;
}

/** Compares secrets in constant time whatever their lengths. */
export function secretsEqual(given: string, expected: string): boolean {
  return digestMatches(secretDigest(given), expected);
}

/** What `digestMatches` compares: a presented secret hashed once, whatever it is compared with. */
export function secretDigest(given: string): Buffer {
  return sha256(given);
}

/** secretsEqual for a presented secret already hashed (`secretDigest`), in constant time. */
export function digestMatches(givenDigest: Buffer, expected: string): boolean {
  return timingSafeEqual(givenDigest, expectedDigest(expected));
}
