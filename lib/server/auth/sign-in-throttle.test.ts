import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { takeSignInAttempt } from "./sign-in-throttle";

let data: TempData;
beforeEach(async () => {
  data = await tempData();
});
afterEach(async () => {
  await data.cleanup();
});

async function attempt(address: string, now = 0, right = false): Promise<number> {
  try {
    const admitted = await takeSignInAttempt(data.stores.limits, address, 10, now);
    if (right) await admitted.succeeded();
    return right ? 200 : 403;
  } catch (error) {
    return (error as { httpStatus: number }).httpStatus;
  }
}

describe("sign-in throttle", () => {
  it("lets one address guess 10 times a minute, then answers 429 even for the right code", async () => {
    const statuses = [];
    for (let index = 0; index < 50; index++) statuses.push(await attempt("10.0.0.1"));
    expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    expect(await attempt("10.0.0.1", 0, true)).toBe(429);
    // Another address is not held back by this one's guesses; a minute later, this one may try again.
    expect(await attempt("10.0.0.2")).toBe(403);
    expect(await attempt("10.0.0.1", 60_000, true)).toBe(200);
  });

  it("caps all addresses together at ten times one address's budget", async () => {
    let guesses = 0;
    for (let address = 0; address < 40; address++) {
      for (let index = 0; index < 10; index++)
        if ((await attempt(`192.0.2.${address}`)) === 403) guesses++;
    }
    expect(guesses).toBe(100);
    expect(await attempt("198.51.100.7")).toBe(429);
  });

  it("does not spend the budget on right codes", async () => {
    for (let index = 0; index < 50; index++) expect(await attempt("10.0.0.3", 0, true)).toBe(200);
    expect(await attempt("10.0.0.3")).toBe(403);
  });

  it("answers 429 with a RetryInfo the error body turns into Retry-After", async () => {
    for (let index = 0; index < 10; index++) await attempt("10.0.0.4");
    const error = await takeSignInAttempt(data.stores.limits, "10.0.0.4", 10, 0).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ httpStatus: 429, rpcStatus: "RESOURCE_EXHAUSTED" });
    expect(JSON.stringify((error as { details: unknown }).details)).toContain("retryDelay");
  });
});
