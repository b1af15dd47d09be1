import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { retryDelayMs, withRetries } from "./retry-policy";
import { UpstreamError } from "./upstream-errors";

const settings = { maxAttempts: 4, retryBaseDelayMs: 100, retryMaxDelayMs: 5_000 };
const overloaded = new ApiError(503, "UNAVAILABLE", "The model is overloaded.");
const quota = (delay: string) =>
  new ApiError(429, "RESOURCE_EXHAUSTED", "quota", [
    { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay },
  ]);

describe("retryDelayMs", () => {
  it("backs off exponentially with jitter between half and all of the step", () => {
    expect(retryDelayMs(1, overloaded, "idempotent", settings, () => 0)).toBe(50);
    expect(retryDelayMs(1, overloaded, "idempotent", settings, () => 1)).toBe(100);
    expect(retryDelayMs(3, overloaded, "idempotent", settings, () => 1)).toBe(400);
    const capped = { ...settings, maxAttempts: 20 };
    expect(retryDelayMs(12, overloaded, "idempotent", capped, () => 1)).toBe(5_000);
  });

  it("stops after the last attempt", () => {
    expect(retryDelayMs(4, overloaded, "idempotent", settings)).toBeNull();
  });

  it("honours RetryInfo, and passes on a delay longer than it will wait", () => {
    const delay = retryDelayMs(1, quota("2s"), "idempotent", settings, () => 0.5)!;
    expect(delay).toBeGreaterThanOrEqual(2000);
    expect(delay).toBeLessThanOrEqual(2100);
    expect(retryDelayMs(1, quota("60s"), "idempotent", settings)).toBeNull();
  });

  it("retries only the retryable statuses", () => {
    for (const status of [429, 500, 502, 503, 504]) {
      expect(
        retryDelayMs(1, new ApiError(status, "UNAVAILABLE", "x"), "idempotent", settings),
      ).not.toBeNull();
    }
    for (const status of [400, 403, 404, 409]) {
      expect(
        retryDelayMs(1, new ApiError(status, "INVALID_ARGUMENT", "x"), "idempotent", settings),
      ).toBeNull();
    }
    expect(retryDelayMs(1, new Error("bug"), "idempotent", settings)).toBeNull();
  });

  it("never retries a streamed request, and a create only when it never left", () => {
    expect(retryDelayMs(1, overloaded, "never", settings)).toBeNull();
    expect(retryDelayMs(1, overloaded, "create", settings)).toBeNull();
    expect(
      retryDelayMs(
        1,
        new UpstreamError(503, "UNAVAILABLE", "unreachable", "not-sent"),
        "create",
        settings,
      ),
    ).not.toBeNull();
    expect(
      retryDelayMs(
        1,
        new UpstreamError(502, "UNAVAILABLE", "closed", "connection-lost"),
        "create",
        settings,
      ),
    ).toBeNull();
  });

  it("does not retry the gateway's own timeouts or refusals, but does retry a lost connection of a read", () => {
    expect(
      retryDelayMs(
        1,
        new UpstreamError(504, "DEADLINE_EXCEEDED", "slow", "timeout"),
        "idempotent",
        settings,
      ),
    ).toBeNull();
    expect(
      retryDelayMs(
        1,
        new UpstreamError(502, "UNAVAILABLE", "redirect", "gateway"),
        "idempotent",
        settings,
      ),
    ).toBeNull();
    expect(
      retryDelayMs(
        1,
        new UpstreamError(502, "UNAVAILABLE", "closed", "connection-lost"),
        "idempotent",
        settings,
      ),
    ).not.toBeNull();
    expect(
      retryDelayMs(
        1,
        new UpstreamError(503, "UNAVAILABLE", "overloaded", "status"),
        "idempotent",
        settings,
      ),
    ).not.toBeNull();
  });
});

describe("withRetries", () => {
  it("runs until success and reports each retry", async () => {
    const seen: number[] = [];
    const result = await withRetries(
      async (attempt) => {
        if (attempt < 3) throw overloaded;
        return attempt;
      },
      {
        safety: "idempotent",
        settings: { ...settings, retryBaseDelayMs: 1 },
        signal: new AbortController().signal,
        onRetry: (attempt) => seen.push(attempt),
      },
    );
    expect(result).toBe(3);
    expect(seen).toEqual([1, 2]);
  });

  it("stops waiting when the client goes away", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = withRetries(
      async () => {
        throw overloaded;
      },
      {
        safety: "idempotent",
        settings: { ...settings, retryBaseDelayMs: 10_000, retryMaxDelayMs: 10_000 },
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
