import "server-only";
import type { BlockList } from "node:net";
import type { LimitStore, RateSettings } from "@/lib/db/stores/limit-store";
import { ApiError } from "@/lib/gemini/api-error";
import { serverEnv } from "../config/env";
import { dataStores } from "../persistence/database-handle";
import {
  CLIENT_ADDRESS_HEADER,
  resolveClientAddress,
  trustedProxyList,
} from "../config/client-address";

/**
 * Sign-in attempts (the access code, or an email and password) are throttled so that guessing
 * is slow and others' guesses never lock a person out. Token buckets in the shared limit store
 * (every instance counts alike); an attempt takes its tokens before the secret is compared and
 * a right answer gives them back, so only wrong guesses use a budget:
 *
 * - per account and client address, `perMinute` guesses: the one budget a right answer cannot
 *   pass, and only guesses at this account from this address spend it;
 * - per account (all addresses) and per address (all accounts), ten times as many: when either
 *   runs out (guessing from many addresses, or one address trying many accounts), the account
 *   is under attack and each address's budget for it drops to one guess a minute. A right
 *   answer from any address still passes at its first try, so no one else's failures block
 *   it; a guesser gets one try a minute per address instead of `perMinute`.
 *
 * Out of tokens: the service's 429 with RetryInfo and Retry-After, whatever the answer.
 */

/** The account and address wide budgets are this many times one pair's. */
const WIDE_FACTOR = 10;
/** A pair's budget while its account or address is under attack. */
const UNDER_ATTACK: RateSettings = { requestsPerMinute: 1, burst: 1 };

const proxyHolder = globalThis as typeof globalThis & {
  genstudioTrustedProxies?: { source: readonly string[]; list: BlockList | null };
};

function trustedProxies(): BlockList | null {
  const source = serverEnv().trustedProxies;
  if (proxyHolder.genstudioTrustedProxies?.source !== source) {
    proxyHolder.genstudioTrustedProxies = {
      source,
      list: source.length === 0 ? null : trustedProxyList(source),
    };
  }
  return proxyHolder.genstudioTrustedProxies.list;
}

/** The client's address: the socket's, or through trusted proxies the one they forwarded for. */
export function clientAddress(request: Request): string {
  return resolveClientAddress(
    request.headers.get(CLIENT_ADDRESS_HEADER),
    request.headers.get("x-forwarded-for"),
    trustedProxies(),
  );
}

function tooMany(waitSeconds: number): ApiError {
  return ApiError.resourceExhausted(
    "Too many sign-in attempts. Please wait before trying again.",
    Math.max(1, waitSeconds),
  );
}

export interface SignInAttempt {
  /** Call when the answer was right: the attempt's tokens are given back. */
  succeeded(): Promise<void>;
}

interface Bucket {
  name: string;
  rate: RateSettings;
}

/**
 * Takes one attempt at `account` (`access-code`, or `email:{address}`) from `address`, or
 * throws 429. `perMinute` 0 admits everything.
 */
export async function takeSignInAttempt(
  limits: LimitStore,
  account: string,
  address: string,
  perMinute: number,
  now: number,
): Promise<SignInAttempt> {
  if (perMinute <= 0) return { succeeded: async () => undefined };
  const wide = { requestsPerMinute: perMinute * WIDE_FACTOR, burst: perMinute * WIDE_FACTOR };
  const taken: Bucket[] = [];
  let underAttack = false;
  for (const name of [`sign-in:account:${account}`, `sign-in:address:${address}`]) {
    const decision = await limits.take(name, wide, now);
    if (decision.taken) taken.push({ name, rate: wide });
    else underAttack = true;
  }
  const pair: Bucket = {
    name: `sign-in:pair:${account}\n${address}`,
    rate: underAttack ? UNDER_ATTACK : { requestsPerMinute: perMinute, burst: perMinute },
  };
  const decision = await limits.take(pair.name, pair.rate, now);
  if (!decision.taken) {
    for (const bucket of taken) await limits.refund(bucket.name, bucket.rate);
    throw tooMany(decision.waitSeconds);
  }
  taken.push(pair);
  return {
    async succeeded() {
      for (const bucket of taken) await limits.refund(bucket.name, bucket.rate);
    },
  };
}

/** Admits one sign-in attempt at `account` from `request`'s client address, or throws 429. */
export async function admitSignInAttempt(
  request: Request,
  account: string,
): Promise<SignInAttempt> {
  return takeSignInAttempt(
    (await dataStores()).limits,
    account,
    clientAddress(request),
    serverEnv().limits.signInAttemptsPerMinute,
    Date.now(),
  );
}
