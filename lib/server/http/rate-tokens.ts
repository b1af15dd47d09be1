import "server-only";
import type { LimitStore, RateDecision, RateSettings } from "@/lib/db/stores/limit-store";

/**
 * Request-rate tokens taken from the shared buckets (lib/db/stores/limit-store.ts) a few at a
 * time, so a caller sending many requests to this instance costs a database write per batch
 * rather than per request. The batch is what this caller sent here in the last
 * WINDOW_MS (so a caller at a slow pace takes one token per request, as before), at most
 * MAX_BATCH, and never more than the store's share of what the bucket holds: near empty every
 * take is of one token, so the limit is exactly as strict as a take per request, and every
 * token is taken once from the one bucket all instances share. A token held here is used
 * within HOLD_MS or dropped (a caller that stops leaves at most a batch unused, spent).
 */

const WINDOW_MS = 100;
const HOLD_MS = 500;
const MAX_BATCH = 100;
/** Callers remembered at most; the oldest go first. */
const MAX_CALLERS = 10_000;

interface HeldTokens {
  tokens: number;
  /** When the held tokens are dropped. */
  expiresAt: number;
  windowStart: number;
  /** Requests in the current window, and in the one before. */
  seen: number;
  previous: number;
}

const holder = globalThis as typeof globalThis & { genstudioRateTokens?: Map<string, HeldTokens> };
const TAKEN: RateDecision = Object.freeze({ taken: true, waitSeconds: 0 });

function heldFor(bucket: string, now: number): HeldTokens {
  const held = (holder.genstudioRateTokens ??= new Map());
  let entry = held.get(bucket);
  if (entry === undefined) {
    if (held.size >= MAX_CALLERS) held.delete(held.keys().next().value!);
    entry = { tokens: 0, expiresAt: 0, windowStart: now, seen: 0, previous: 0 };
    held.set(bucket, entry);
  } else if (now - entry.windowStart >= WINDOW_MS) {
    entry.previous = now - entry.windowStart < 2 * WINDOW_MS ? entry.seen : 0;
    entry.seen = 0;
    entry.windowStart = now;
  }
  return entry;
}

/**
 * Takes a token of `bucket` for one request from this instance's batch, when it holds one: no
 * database and no promise, which is how most requests of a busy caller are counted. Notes the
 * request either way (the next batch's size), so it is called once a request, and when it
 * answers false the request's token comes from a new batch (`takeNewBatch`).
 */
export function takeHeldRateToken(bucket: string): boolean {
  const now = Date.now();
  const held = heldFor(bucket, now);
  held.seen++;
  if (held.tokens > 0 && now < held.expiresAt) {
    held.tokens--;
    return true;
  }
  return false;
}

/**
 * The token of a request that `takeHeldRateToken` found none held for: a new batch from the
 * shared bucket, of which this request takes one and this instance holds the rest.
 */
export async function takeNewBatch(
  limits: LimitStore,
  bucket: string,
  rate: RateSettings,
): Promise<RateDecision> {
  const now = Date.now();
  const held = heldFor(bucket, now);
  const wanted = Math.min(MAX_BATCH, Math.max(held.seen, held.previous));
  const decision = await limits.takeBatch(bucket, rate, now, wanted);
  if (!decision.taken) return { taken: false, waitSeconds: decision.waitSeconds };
  // Requests that raced for a batch each took one: what they left is held together.
  if (!(Date.now() < held.expiresAt)) held.tokens = 0;
  held.tokens += decision.count - 1;
  held.expiresAt = now + HOLD_MS;
  return TAKEN;
}

/** Takes a token of `bucket` for one request: from this instance's batch, or a new batch. */
export async function takeRateToken(
  limits: LimitStore,
  bucket: string,
  rate: RateSettings,
): Promise<RateDecision> {
  if (takeHeldRateToken(bucket)) return TAKEN;
  return takeNewBatch(limits, bucket, rate);
}
