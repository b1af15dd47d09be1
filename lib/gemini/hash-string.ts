/**
 * FNV-1a over a string's UTF-16 code units: a fast, stable 32-bit hash for fingerprints and
 * seeds (page-token scopes, the local engine's seeds and ids). Not for anything secret.
 */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
