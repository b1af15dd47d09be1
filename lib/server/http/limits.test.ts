import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { RateLimiter, StreamLimiter, releaseWhenDone } from "./limits";

describe("RateLimiter", () => {
  it("allows a burst, then answers 429 with RetryInfo until tokens refill", () => {
    let now = 0;
    const limiter = new RateLimiter({ requestsPerMinute: 60, burst: 3 }, () => now);
    for (let index = 0; index < 3; index++) limiter.take("key:a");
    let refused: unknown;
    try {
      limiter.take("key:a");
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).httpStatus).toBe(429);
    expect((refused as ApiError).rpcStatus).toBe("RESOURCE_EXHAUSTED");
    expect((refused as ApiError).details).toEqual([
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" },
    ]);
    // Another caller has its own bucket.
    limiter.take("key:b");
    now += 1_000;
    limiter.take("key:a");
    expect(() => limiter.take("key:a")).toThrow(ApiError);
  });

  it("is off at 0", () => {
    const limiter = new RateLimiter({ requestsPerMinute: 0, burst: 0 });
    for (let index = 0; index < 1000; index++) limiter.take("key:a");
  });
});

describe("StreamLimiter", () => {
  it("caps open streams per caller and frees a slot once, on release", () => {
    const limiter = new StreamLimiter({ maxStreamsPerKey: 2 });
    const first = limiter.acquire("key:a");
    limiter.acquire("key:a");
    expect(() => limiter.acquire("key:a")).toThrow(/at most 2 open streams/);
    limiter.acquire("key:b");
    first();
    first();
    expect(limiter.count("key:a")).toBe(1);
    limiter.acquire("key:a");
    expect(() => limiter.acquire("key:a")).toThrow(ApiError);
  });
});

describe("releaseWhenDone", () => {
  it("releases when the body has been read to the end, not before", async () => {
    let released = 0;
    const response = releaseWhenDone(
      new Response("data: {}\r\n\r\n"),
      () => released++,
      new AbortController().signal,
    );
    expect(released).toBe(0);
    expect(await response.text()).toBe("data: {}\r\n\r\n");
    expect(released).toBe(1);
  });

  it("releases when the client cancels the body or the request aborts", async () => {
    let released = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array([58, 10])),
    });
    const response = releaseWhenDone(
      new Response(endless),
      () => released++,
      new AbortController().signal,
    );
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(released).toBe(1);
    const controller = new AbortController();
    let releasedByAbort = 0;
    releaseWhenDone(new Response(new ReadableStream()), () => releasedByAbort++, controller.signal);
    controller.abort();
    expect(releasedByAbort).toBe(1);
  });
});
