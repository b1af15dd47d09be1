/**
 * Implicit caching as the service reports it (lib/engine/README.md, "Implicit caching"): a
 * generation whose prompt shares whole blocks with a prompt the same owner sent the same model
 * within the cache lifetime answers with those blocks' tokens as `cachedContentTokenCount`
 * (and their modalities as `cacheTokensDetails`); its own blocks are then remembered for the
 * next. Owners never share prefixes: they are keyed by owner in the store
 * (lib/db/stores/implicit-cache-store.ts), which every instance shares and which forgets
 * them when they expire.
 */
import type { ImplicitCacheStore } from "@/lib/db/stores/implicit-cache-store";
import type { ModalityTokenCount } from "@/lib/gemini/types";
import type { ImplicitCacheTraits, PromptPrefixes } from "./implicit-prefix";

export interface ImplicitCacheHit {
  cachedContentTokenCount: number;
  cacheTokensDetails: ModalityTokenCount[];
}

/** Sweeps expired prefixes at most this often (they are also ignored once expired). */
const SWEEP_INTERVAL_MS = 60_000;

export class ImplicitCacheService {
  private lastSweep = 0;

  constructor(
    private readonly store: ImplicitCacheStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The hit of a prompt of `ownerId` on `model`, if any, and its blocks remembered: the
   * longest run of the prompt's blocks the owner sent that model before and that has not
   * expired.
   */
  async answer(
    ownerId: string,
    model: string,
    traits: ImplicitCacheTraits,
    prefixes: PromptPrefixes,
  ): Promise<ImplicitCacheHit | undefined> {
    if (prefixes.blocks.length === 0) return undefined;
    const now = this.now();
    const hashes = prefixes.blocks.map((block) => block.hash);
    const present = await this.store.present(ownerId, model, hashes, now);
    let cached = 0;
    for (const block of prefixes.blocks) if (present.has(block.hash)) cached = block.tokens;
    await this.store.remember(ownerId, model, hashes, now + traits.ttlSeconds * 1000);
    if (now - this.lastSweep >= SWEEP_INTERVAL_MS) {
      this.lastSweep = now;
      await this.store.sweep(now);
    }
    if (cached === 0) return undefined;
    return { cachedContentTokenCount: cached, cacheTokensDetails: prefixes.detailsOf(cached) };
  }
}
