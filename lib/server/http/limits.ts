import "server-only";
import { randomBytes } from "node:crypto";
import type { LimitStore, RateDecision, RateSettings } from "@/lib/db/stores/limit-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";
import { countRefusal } from "../observability/studio-metrics";
import { dataStores } from "../persistence/database-handle";
import { takeHeldRateToken, takeNewBatch } from "./rate-tokens";

/**
 * Per-caller limits, in both modes and across every instance sharing the database: a request
 * rate (token bucket: `burst` requests at once, refilled at `requestsPerMinute`; taken while
 * authenticating, lib/server/auth/authenticate.ts) and a cap on concurrent streams (a slot per
 * open stream, lib/db/stores/limit-store.ts). Either answers the service's 429
 * RESOURCE_EXHAUSTED with RetryInfo (and, through errorResponse, Retry-After). The caller is
 * the owner id, so every studio key and the browser session count separately.
 */

/** The rate settings, or null when the rate limit is off. */
export function rateSettings(): RateSettings | null {
  const { requestsPerMinute, burst } = serverEnv().limits;
  return requestsPerMinute > 0 && burst > 0 ? { requestsPerMinute, burst } : null;
}

/** Throws the service's 429 when the bucket had no token for this request. */
export function assertRateAllowed(decision: RateDecision | null): void {
  if (decision === null || decision.taken) return;
  countRefusal("rate");
  throw ApiError.resourceExhausted(
    `Quota exceeded: more than ${serverEnv().limits.requestsPerMinute} requests per minute for this caller. Please retry later.`,
    decision.waitSeconds,
  );
}

/**
 * Takes a token of `ownerId`'s request rate (from this instance's batch, rate-tokens.ts), or
 * throws the service's 429 (nothing when the limit is off). A token this instance already
 * holds is taken at once (undefined: nothing to wait for, no promise made); else the answer is
 * the promise of a new batch, which rejects with the 429.
 */
export function countRequest(ownerId: string): Promise<void> | undefined {
  const rate = rateSettings();
  if (rate === null || takeHeldRateToken(ownerId)) return undefined;
  return countFromNewBatch(ownerId, rate);
}

async function countFromNewBatch(ownerId: string, rate: RateSettings): Promise<void> {
  assertRateAllowed(await takeNewBatch((await dataStores()).limits, ownerId, rate));
}

/** A stream slot outlives its instance by at most this long; the instance renews it a third as often. */
const STREAM_SLOT_LIFETIME_MS = 30_000;

interface StreamSlots {
  instanceId: string;
  held: number;
  /** Slots whose release failed (database away): released again at the next renewal. */
  unreleased: Set<string>;
  timer: NodeJS.Timeout | null;
}

const holder = globalThis as typeof globalThis & { genstudioStreamSlots?: StreamSlots };

function streamSlots(): StreamSlots {
  holder.genstudioStreamSlots ??= {
    instanceId: randomBytes(12).toString("base64url"),
    held: 0,
    unreleased: new Set(),
    timer: null,
  };
  return holder.genstudioStreamSlots;
}

async function renewStreamSlots(limits: LimitStore, slots: StreamSlots): Promise<void> {
  for (const id of [...slots.unreleased]) {
    await limits.releaseStream(id);
    slots.unreleased.delete(id);
  }
  const now = Date.now();
  await limits.renewStreams(slots.instanceId, now, now + STREAM_SLOT_LIFETIME_MS);
}

/**
 * Takes a stream slot for `caller`, or throws 429 when the caller already holds the cap on any
 * instance. Returns the slot's release (idempotent; hand it to releaseWhenDone).
 */
export async function acquireStreamSlot(caller: Caller): Promise<() => void> {
  const limit = serverEnv().limits.maxStreamsPerKey;
  if (limit <= 0) return () => undefined;
  const { limits } = await dataStores();
  const slots = streamSlots();
  const now = Date.now();
  const id = await limits.acquireStream(
    caller.ownerId,
    limit,
    slots.instanceId,
    now,
    now + STREAM_SLOT_LIFETIME_MS,
  );
  if (id === null) {
    countRefusal("streams");
    throw ApiError.resourceExhausted(
      `Too many concurrent streams: at most ${limit} open streams per caller. Please retry when one has finished.`,
      1,
    );
  }
  slots.held++;
  if (slots.timer === null) {
    slots.timer = setInterval(() => {
      renewStreamSlots(limits, slots).catch((error: unknown) =>
        logger.warn("renewing stream slots failed", error),
      );
    }, STREAM_SLOT_LIFETIME_MS / 3);
    slots.timer.unref();
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    slots.held--;
    limits.releaseStream(id).catch(() => slots.unreleased.add(id));
  };
}

/**
 * A response whose body calls `release` once it is finished, failed or cancelled by the
 * client (or the request is aborted), so a stream holds its slot exactly as long as it runs.
 */
export function releaseWhenDone(
  response: Response,
  release: () => void,
  signal: AbortSignal,
): Response {
  if (!response.body) {
    release();
    return response;
  }
  signal.addEventListener("abort", release, { once: true });
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** True for the operations that hold a stream open (the stream cap applies to them). */
export function isStreamOperation(path: string): boolean {
  return /:streamGenerateContent$/.test(path);
}
