import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { messageErrorOf, retryWaitMs } from "./message-error";

const now = Date.parse("2026-11-27T08:00:00.000Z");

describe("messageErrorOf", () => {
  it("keeps when a 429 may be retried, from its RetryInfo", () => {
    const error = ApiError.resourceExhausted("Slow down.", 30);
    const summary = messageErrorOf(error, now);
    expect(summary).toEqual({
      code: 429,
      message: "Slow down.",
      status: "RESOURCE_EXHAUSTED",
      retryAt: "2026-11-27T08:00:30.000Z",
    });
    expect(retryWaitMs(summary, now + 10_000)).toBe(20_000);
    expect(retryWaitMs(summary, now + 40_000)).toBe(0);
  });

  it("asks no wait of an error without RetryInfo", () => {
    const summary = messageErrorOf(new ApiError(500, "INTERNAL", "Oops."), now);
    expect(summary).not.toHaveProperty("retryAt");
    expect(retryWaitMs(summary, now)).toBe(0);
    expect(retryWaitMs(undefined, now)).toBe(0);
    expect(retryWaitMs({ ...summary, retryAt: "later" }, now)).toBe(0);
  });
});
