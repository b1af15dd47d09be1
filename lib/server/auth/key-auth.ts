import "server-only";
import type { RateSettings } from "@/lib/db/stores/limit-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { effectiveLimits, hasBudgets, spendPeriods } from "@/lib/studio/key-limits";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";
import { countRequest, rateSettings } from "../http/limits";
import { takeRateToken } from "../http/rate-tokens";
import { countRefusal } from "../observability/studio-metrics";
import { dataStores } from "../persistence/database-handle";
import { keyHashingSecret, liveKeyByHash, personById } from "./identity-cache";
import { attachKeyPolicy } from "./key-policy";
import { hashKeySecret, looksLikeManagedKey } from "./key-secrets";
import { digestMatches, secretDigest } from "./secure-compare";

/**
 * The caller of a request that carries a key: one of STUDIO_API_KEYS (its own workspace,
 * `key:{name}`), or a key made in the studio (its workspace's, with its limits). A managed key
 * is found in this instance's identity cache (no database round trip while nothing changed);
 * its rate token comes from this instance's batch (lib/server/http/rate-tokens.ts) or, when it
 * has budgets, is taken in one round trip with its spend.
 */

const INVALID_KEY_MESSAGE = "API key not valid. Please pass a valid API key.";

/** The service's answer to a wrong key, details included (recorded). */
export function invalidKey(): ApiError {
  return new ApiError(400, "INVALID_ARGUMENT", INVALID_KEY_MESSAGE, [
    {
      "@type": "type.googleapis.com/google.rpc.ErrorInfo",
      reason: "API_KEY_INVALID",
      domain: "googleapis.com",
      metadata: { service: "generativelanguage.googleapis.com" },
    },
    {
      "@type": "type.googleapis.com/google.rpc.LocalizedMessage",
      locale: "en-US",
      message: INVALID_KEY_MESSAGE,
    },
  ]);
}

/** A managed key's rate: its own within the studio-wide one (null: no rate limit at all). */
function keyRate(own: number | null): RateSettings | null {
  const global = rateSettings();
  if (own === null) return global;
  const requestsPerMinute = global === null ? own : Math.min(own, global.requestsPerMinute);
  const burst = Math.max(1, Math.ceil(requestsPerMinute / 5));
  return { requestsPerMinute, burst: global === null ? burst : Math.min(burst, global.burst) };
}

const TOUCH_INTERVAL_MS = 60_000;
const touchHolder = globalThis as typeof globalThis & { genstudioKeyTouches?: Map<string, number> };

/** Notes a key's use at most once a minute per instance, off the request's path. */
function touch(keyId: string, now: number): void {
  const touches = (touchHolder.genstudioKeyTouches ??= new Map());
  if (now - (touches.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  touches.set(keyId, now);
  if (touches.size > 10_000) touches.delete(touches.keys().next().value!);
  void dataStores()
    .then((stores) => stores.apiKeys.touch([keyId], now))
    .catch((error: unknown) => logger.warn("noting a key's use failed", error));
}

export async function authenticateKey(presented: string, countRate: boolean): Promise<Caller> {
  // Hashed once, compared with each configured key's digest in constant time.
  const presentedDigest = secretDigest(presented);
  const match = serverEnv().studioKeys.find((studioKey) =>
    digestMatches(presentedDigest, studioKey.key),
  );
  if (match) {
    const ownerId = `key:${match.name}`;
    // Most requests take a token this instance holds: nothing to wait for then.
    const counting = countRate ? countRequest(ownerId) : undefined;
    if (counting) await counting;
    return { ownerId, key: { id: `env:${match.name}`, name: match.name, managed: false } };
  }
  if (!looksLikeManagedKey(presented)) throw invalidKey();
  const record = await liveKeyByHash(hashKeySecret(presented, await keyHashingSecret()));
  if (!record) throw invalidKey();
  const person = record.personId === null ? null : await personById(record.personId);
  if (record.personId !== null && (person === null || person.disabledAt !== null))
    throw invalidKey();
  const limits = effectiveLimits(record.limits, person?.allowance ?? null);
  const now = Date.now();
  const rate = countRate ? keyRate(limits.requestsPerMinute) : null;
  const spendQuery = hasBudgets(limits) ? { keyId: record.id, ...spendPeriods(now) } : null;
  const bucket = `apikey:${record.id}`;
  const { limits: store } = await dataStores();
  // Without budgets the token may come from this instance's batch; with them the spend is
  // read in the same round trip as the token.
  const found =
    spendQuery === null
      ? { rate: rate === null ? null : await takeRateToken(store, bucket, rate), spend: null }
      : await store.takeWithSpend(bucket, rate, now, spendQuery);
  if (found.rate !== null && !found.rate.taken) {
    countRefusal("rate");
    throw ApiError.resourceExhausted(
      `Quota exceeded: more than ${rate!.requestsPerMinute} requests per minute for this API key. Please retry later.`,
      found.rate.waitSeconds,
    );
  }
  touch(record.id, now);
  const caller: Caller = {
    ownerId: record.ownerId,
    ...(person ? { person: { id: person.id, role: person.role } } : {}),
    key: { id: record.id, name: record.name, managed: true },
  };
  attachKeyPolicy(caller, { limits, spend: found.spend });
  return caller;
}
