import "server-only";
import type { LimitStore } from "@/lib/db/stores/limit-store";
import { ApiError } from "@/lib/gemini/api-error";
import { serverEnv } from "../config/env";
import { dataStores } from "../persistence/database-handle";

/**
 * Sign-in attempts are throttled per client address and for all addresses together (token
 * buckets in the shared limit store, so every instance counts alike): each attempt takes a
 * token from both before the code is compared, and a right code gives its tokens back, so
 * only wrong guesses (and attempts made while out of tokens) use the budget. Out of tokens:
 * the service's 429 with RetryInfo and Retry-After, whatever the code.
 */

/** Set by scripts/connection-guard.cjs from the socket, over anything the client sent. */
export const CLIENT_ADDRESS_HEADER = "x-genstudio-client-address";
/** All addresses together may guess this many times as often as one. */
const ALL_ADDRESSES_FACTOR = 10;

/** The address the request came from: the socket's, as the connection guard recorded it. */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() || "unknown";
}

function tooMany(waitSeconds: number): ApiError {
  return ApiError.resourceExhausted(
    "Too many sign-in attempts. Please wait before trying again.",
    Math.max(1, waitSeconds),
  );
}

export interface SignInAttempt {
  /** Call when the code was right: the attempt's tokens are given back. */
  succeeded(): Promise<void>;
}

/**
 * Takes one attempt from `address`'s bucket and from all addresses' bucket, or throws 429
 * (giving back what it took). `perMinute` 0 admits everything.
 */
export async function takeSignInAttempt(
  limits: LimitStore,
  address: string,
  perMinute: number,
  now: number,
): Promise<SignInAttempt> {
  if (perMinute <= 0) return { succeeded: async () => undefined };
  const all = perMinute * ALL_ADDRESSES_FACTOR;
  const buckets = [
    {
      name: `sign-in:address:${address}`,
      rate: { requestsPerMinute: perMinute, burst: perMinute },
    },
    { name: "sign-in:all", rate: { requestsPerMinute: all, burst: all } },
  ];
  const taken: typeof buckets = [];
  for (const bucket of buckets) {
    const decision = await limits.take(bucket.name, bucket.rate, now);
    if (!decision.taken) {
      for (const earlier of taken) await limits.refund(earlier.name, earlier.rate);
      throw tooMany(decision.waitSeconds);
    }
    taken.push(bucket);
  }
  return {
    async succeeded() {
      for (const bucket of taken) await limits.refund(bucket.name, bucket.rate);
    },
  };
}

/** Admits one sign-in attempt of `request`'s client address, or throws 429. */
export async function admitSignInAttempt(request: Request): Promise<SignInAttempt> {
  return takeSignInAttempt(
    (await dataStores()).limits,
    clientAddress(request),
    serverEnv().limits.signInAttemptsPerMinute,
    Date.now(),
  );
}
