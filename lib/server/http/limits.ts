import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { serverEnv, type LimitSettings } from "../config/env";

/**
 * Per-caller limits, in both modes: a request rate (token bucket: `burst` requests at once,
 * refilled at `requestsPerMinute`) and a cap on concurrent streams. Either answers the
 * service's 429 RESOURCE_EXHAUSTED with RetryInfo (and, through errorResponse, Retry-After).
 * The caller is the owner id, so every studio key and the browser session count separately.
 */

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly settings: Pick<LimitSettings, "requestsPerMinute" | "burst">,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for `ownerId`, or throws 429 saying when the next one is due. */
  take(ownerId: string): void {
    const { requestsPerMinute, burst } = this.settings;
    if (requestsPerMinute <= 0 || burst <= 0) return;
    const perMs = requestsPerMinute / 60_000;
    const now = this.now();
    const bucket = this.buckets.get(ownerId) ?? { tokens: burst, updatedAt: now };
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
    this.buckets.set(ownerId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const waitSeconds = (1 - bucket.tokens) / perMs / 1000;
    throw ApiError.resourceExhausted(
      `Quota exceeded: more than ${requestsPerMinute} requests per minute for this caller. Please retry later.`,
      waitSeconds,
    );
  }
}

export class StreamLimiter {
  private readonly open = new Map<string, number>();

  constructor(private readonly settings: Pick<LimitSettings, "maxStreamsPerKey">) {}

  /** Counts one more open stream for `ownerId` and returns its release (idempotent), or throws 429. */
  acquire(ownerId: string): () => void {
    const limit = this.settings.maxStreamsPerKey;
    const current = this.open.get(ownerId) ?? 0;
    if (limit > 0 && current >= limit) {
      throw ApiError.resourceExhausted(
        `Too many concurrent streams: at most ${limit} open streams per caller. Please retry when one has finished.`,
        1,
      );
    }
    this.open.set(ownerId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(ownerId) ?? 1) - 1;
      if (left <= 0) this.open.delete(ownerId);
      else this.open.set(ownerId, left);
    };
  }

  count(ownerId: string): number {
    return this.open.get(ownerId) ?? 0;
  }
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

const holder = globalThis as typeof globalThis & {
  genstudioLimits?: { rate: RateLimiter; streams: StreamLimiter };
};

function limiters(): { rate: RateLimiter; streams: StreamLimiter } {
  holder.genstudioLimits ??= {
    rate: new RateLimiter(serverEnv().limits),
    streams: new StreamLimiter(serverEnv().limits),
  };
  return holder.genstudioLimits;
}

/** True for the operations that hold a stream open (the stream cap applies to them). */
export function isStreamOperation(path: string): boolean {
  return /:streamGenerateContent$/.test(path);
}

/**
 * Admits one request of `caller`: takes a rate token and, for streams, a stream slot.
 * Returns the slot's release for streams (hand it to releaseWhenDone), else null.
 */
export function admitRequest(caller: Caller, stream: boolean): (() => void) | null {
  const { rate, streams } = limiters();
  rate.take(caller.ownerId);
  return stream ? streams.acquire(caller.ownerId) : null;
}
