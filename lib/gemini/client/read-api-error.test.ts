import { describe, expect, it } from "vitest";
import { retryInfoDelayMs } from "../retry-info";
import { readApiError } from "./read-api-error";

const body = (details?: unknown[]) =>
  JSON.stringify({
    error: { code: 429, message: "Slow down.", status: "RESOURCE_EXHAUSTED", details },
  });

describe("readApiError", () => {
  it("keeps a Retry-After header the body has no RetryInfo for", async () => {
    const error = await readApiError(
      new Response(body(), { status: 429, headers: { "Retry-After": "30" } }),
    );
    expect(error.rpcStatus).toBe("RESOURCE_EXHAUSTED");
    expect(retryInfoDelayMs(error.details)).toBe(30_000);
  });

  it("prefers the body's RetryInfo, and reads a non-JSON failure by its status", async () => {
    const error = await readApiError(
      new Response(
        body([{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "5s" }]),
        { status: 429, headers: { "Retry-After": "30" } },
      ),
    );
    expect(retryInfoDelayMs(error.details)).toBe(5_000);
    expect(error.details).toHaveLength(1);
    const plain = await readApiError(new Response("Bad gateway", { status: 502 }));
    expect([plain.httpStatus, plain.rpcStatus, plain.message]).toEqual([
      502,
      "UNKNOWN",
      "Bad gateway",
    ]);
    expect(plain.details).toBeUndefined();
  });
});
