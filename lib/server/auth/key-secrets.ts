import "server-only";
import { createHmac, randomBytes } from "node:crypto";

/**
 * API keys people make: `gsk_` and 43 characters of randomness (256 bits), shown once. Stored
 * as HMAC-SHA256 under the studio's own secret (lib/db/stores/auth-state-store): with that
 * much randomness a fast keyed hash is right (nothing to guess), and a copied table alone
 * cannot even be checked against a key. The first characters are kept to tell keys apart.
 */

export const KEY_PREFIX = "gsk_";

export function newKeySecret(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** The part of a key kept to show which one it is (`gsk_Ab12Cd`). */
export function keyDisplayPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + 6);
}

/** True when a presented key has the shape of one the studio makes (worth looking up). */
export function looksLikeManagedKey(presented: string): boolean {
  return presented.startsWith(KEY_PREFIX) && presented.length === KEY_PREFIX.length + 43;
}

export function hashKeySecret(secret: string, hashingSecret: string): string {
  return createHmac("sha256", hashingSecret).update(secret, "utf8").digest("base64url");
}
