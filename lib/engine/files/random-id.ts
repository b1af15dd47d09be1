/**
 * Resource ids of the local engine: `files/{id}` and `cachedContents/{id}` use lower-case
 * letters and digits, as long as the service's (recorded: 12 for files, 40 for caches); upload
 * session ids are long opaque capabilities, since knowing one is enough to send bytes to the
 * session.
 */
import { randomBytes, randomInt } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The length of the service's ids per collection (recorded). */
export const FILE_ID_LENGTH = 12;
export const CACHE_ID_LENGTH = 40;

/** A random `[a-z0-9]` id, unbiased (crypto.randomInt), `length` characters long. */
export function randomResourceId(length = FILE_ID_LENGTH): string {
  let id = "";
  for (let index = 0; index < length; index++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** A random upload session id: 32 bytes of entropy, URL-safe. */
export function randomUploadId(): string {
  return randomBytes(32).toString("base64url");
}
