import "server-only";
import type { DataStores } from "@/lib/db/data-stores";
import type { ApiKeyRecord } from "@/lib/db/stores/api-key-store";
import type { PersonRecord } from "@/lib/db/stores/people-store";
import { logger } from "../config/logger";
import { dataStores } from "../persistence/database-handle";

/**
 * Every instance's memory of API keys (by the hash of their secret) and people (by id), so a
 * request with a known key costs no database round trip for it. The cache is good only while
 * it is confirmed: a timer reads the shared auth version every POLL_MS (on PostgreSQL a NOTIFY
 * also wakes it at once), and any change (a key made, limited or revoked; a person disabled,
 * promoted or limited, on any instance) empties it. A cache not confirmed within STALE_MS (the
 * database away, the timer late) is not used: lookups go to the database. So a revoked key
 * stops on every instance within POLL_MS plus one query, and never later than STALE_MS.
 *
 * Keys that are not found are remembered too: a key is random, so no one presents one before
 * it exists, and making a key empties the cache anyway.
 */

const POLL_MS = 250;
const STALE_MS = 1000;
/** Entries kept at most (either map); the oldest go first. */
const MAX_ENTRIES = 10_000;

interface IdentityCacheState {
  /** The auth version the entries were read at; null before the first read. */
  version: number | null;
  /** When a read of the version last agreed with `version`. */
  confirmedAt: number;
  /** Goes up each time the entries are dropped, so a read begun before cannot store into the new ones. */
  generation: number;
  keys: Map<string, ApiKeyRecord | null>;
  people: Map<string, PersonRecord | null>;
  hashingSecret: string | null;
  refreshing: Promise<void> | null;
  timer: NodeJS.Timeout | null;
}

const holder = globalThis as typeof globalThis & { genstudioIdentityCache?: IdentityCacheState };

function state(): IdentityCacheState {
  holder.genstudioIdentityCache ??= {
    version: null,
    confirmedAt: 0,
    generation: 0,
    keys: new Map(),
    people: new Map(),
    hashingSecret: null,
    refreshing: null,
    timer: null,
  };
  return holder.genstudioIdentityCache;
}

function drop(cache: IdentityCacheState): void {
  cache.keys.clear();
  cache.people.clear();
  cache.generation++;
}

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** Reads the version once (concurrent callers share the read) and drops the entries if it moved. */
function refresh(stores: DataStores, cache: IdentityCacheState): Promise<void> {
  cache.refreshing ??= (async () => {
    const asked = Date.now();
    try {
      const version = await stores.authState.version();
      if (version !== cache.version) {
        drop(cache);
        cache.version = version;
      }
      cache.confirmedAt = asked;
    } finally {
      cache.refreshing = null;
    }
  })();
  return cache.refreshing;
}

function startWatching(stores: DataStores, cache: IdentityCacheState): void {
  if (cache.timer !== null) return;
  const poll = () =>
    refresh(stores, cache).catch((error: unknown) =>
      logger.warn("reading the auth version failed", error),
    );
  cache.timer = setInterval(poll, POLL_MS);
  cache.timer.unref();
  stores.authState.onChange(() => void poll());
}

/** The stores, with the cache confirmed fresh (read again when it is not). */
async function freshCache(): Promise<{ stores: DataStores; cache: IdentityCacheState }> {
  const stores = await dataStores();
  const cache = state();
  startWatching(stores, cache);
  if (cache.version === null || Date.now() - cache.confirmedAt > STALE_MS)
    await refresh(stores, cache);
  return { stores, cache };
}

async function cached<T>(
  pick: (cache: IdentityCacheState) => Map<string, T | null>,
  id: string,
  read: (stores: DataStores) => Promise<T | null>,
): Promise<T | null> {
  const { stores, cache } = await freshCache();
  const map = pick(cache);
  const known = map.get(id);
  if (known !== undefined) return known;
  const generation = cache.generation;
  const found = await read(stores);
  if (cache.generation === generation) remember(map, id, found);
  return found;
}

/** The live key whose secret hashes to `secretHash`, or null. */
export function liveKeyByHash(secretHash: string): Promise<ApiKeyRecord | null> {
  return cached(
    (cache) => cache.keys,
    secretHash,
    (stores) => stores.apiKeys.findLive(secretHash),
  );
}

/** A person by id, or null. */
export function personById(id: string): Promise<PersonRecord | null> {
  return cached(
    (cache) => cache.people,
    id,
    (stores) => stores.people.get(id),
  );
}

/** The secret API keys are hashed with (read once; it never changes). */
export async function keyHashingSecret(): Promise<string> {
  const cache = state();
  cache.hashingSecret ??= await (await dataStores()).authState.secret();
  return cache.hashingSecret;
}

/**
 * Forgets everything now: called by this instance after it changed a key or a person (the
 * others learn it from the version).
 */
export function forgetIdentities(): void {
  drop(state());
}
