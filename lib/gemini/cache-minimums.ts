/**
 * The smallest cachedContent each model accepts, in tokens, for the browser. The wire Model
 * resource has no field for it, so rather than add a non-standard one this table mirrors the
 * engine catalog's `minCacheTokens` (lib/engine/catalog.ts; a unit test keeps them equal) and
 * the service's published minimums. Safe in the browser.
 */

const MINIMUMS: readonly [pattern: RegExp, tokens: number][] = [
  [/^models\/gemini-1\.5-flash/, 32_768],
  [/^models\/gemini-1\.5-pro/, 32_768],
  // Answered by a 2.5 Flash preview in 2025 (its modelVersion), so 2.5 Flash's minimum.
  [/^models\/gemini-2\.0-flash-thinking-exp/, 1024],
  [/^models\/gemini-2\.0-/, 4096],
  [/^models\/gemini-2\.5-pro/, 4096],
  [/^models\/gemini-2\.5-flash/, 1024],
  [/^models\/gemini-3[.\d]*-pro/, 4096],
  [/^models\/gemini-pro-latest$/, 4096],
  [/^models\/gemini-3/, 1024],
  [/^models\/gemini-flash(?:-lite)?-latest$/, 1024],
  [/^models\/gemini-robotics-er-/, 1024],
];

/** Used for models the table does not know (the service's smallest minimum). */
export const FALLBACK_MIN_CACHE_TOKENS = 1024;

/** The model's minimum cache size in tokens (`models/{id}` or a bare id). */
export function minCacheTokens(model: string): number {
  const name = model.startsWith("models/") ? model : `models/${model}`;
  return MINIMUMS.find(([pattern]) => pattern.test(name))?.[1] ?? FALLBACK_MIN_CACHE_TOKENS;
}

/** Whether the model minimum came from the table (false: the fallback guess). */
export function knowsCacheMinimum(model: string): boolean {
  const name = model.startsWith("models/") ? model : `models/${model}`;
  return MINIMUMS.some(([pattern]) => pattern.test(name));
}
