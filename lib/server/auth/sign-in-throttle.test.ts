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

/** One attempt: 200 for a right answer let through, 403 for a wrong one, else the throttle's status. */
async function attempt(
  address: string,
  { now = 0, right = false, account = "access-code" } = {},
): Promise<number> {
  try {
    const admitted = await takeSignInAttempt(data.stores.limits, account, address, 10, now);
    if (right) await admitted.succeeded();
    return right ? 200 : 403;
  } catch (error) {
    return (error as { httpStatus: number }).httpStatus;
  }
}

describe("sign-in throttle", () => {
  it("lets one address guess at one account 10 times a minute, then answers 429 even for the right answer", async () => {
    const statuses = [];
    for (let index = 0; index < 50; index++) statuses.push(await attempt("10.0.0.1"));
    expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    expect(await attempt("10.0.0.1", { right: true })).toBe(429);
    // Another address is not held back by this one's guesses; a minute later, this one may try again.
    expect(await attempt("10.0.0.2", { right: true })).toBe(200);
    expect(await attempt("10.0.0.1", { now: 60_000, right: true })).toBe(200);
  });

  it("never lets guesses from many addresses block a right answer from a new one", async () => {
    let guesses = 0;
    for (let address = 0; address < 40; address++) {
      for (let index = 0; index < 10; index++)
        if ((await attempt(`192.0.2.${address}`)) === 403) guesses++;
    }
    // The account is under attack after 100 guesses: each further address then gets one a minute.
    expect(guesses).toBe(100 + 30);
    expect(await attempt("198.51.100.7", { right: true })).toBe(200);
    expect(await attempt("198.51.100.8")).toBe(403);
    expect(await attempt("198.51.100.8")).toBe(429);
    // Other accounts are not under attack: a guess at one from a fresh address is a plain 403.
    expect(await attempt("198.51.100.9", { account: "email:bob@example.com" })).toBe(403);
    expect(await attempt("198.51.100.9", { account: "email:bob@example.com" })).toBe(403);
  });

  it("slows one address trying many accounts, without blocking a right answer for any of them", async () => {
    for (let account = 0; account < 20; account++) {
      for (let index = 0; index < 6; index++)
        await attempt("10.9.9.9", { account: `email:person${account}@example.com` });
    }
    expect(await attempt("10.9.9.9", { account: "email:new@example.com" })).toBe(403);
    expect(await attempt("10.9.9.9", { account: "email:new@example.com" })).toBe(429);
    expect(await attempt("10.9.9.9", { account: "email:alice@example.com", right: true })).toBe(
      200,
    );
  });

  it("does not spend the budget on right answers", async () => {
    for (let index = 0; index < 50; index++)
      expect(await attempt("10.0.0.3", { right: true })).toBe(200);
    expect(await attempt("10.0.0.3")).toBe(403);
  });

  it("answers 429 with a RetryInfo the error body turns into Retry-After", async () => {
    for (let index = 0; index < 10; index++) await attempt("10.0.0.4");
    const error = await takeSignInAttempt(
      data.stores.limits,
      "access-code",
      "10.0.0.4",
      10,
      0,
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ httpStatus: 429, rpcStatus: "RESOURCE_EXHAUSTED" });
    expect(JSON.stringify((error as { details: unknown }).details)).toContain("retryDelay");
  });
});
