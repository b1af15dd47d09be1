import { describe, expect, it } from "vitest";
import { expiryFields, toLocalDateTimeValue } from "./expiry-input";

describe("expiryFields", () => {
  const now = Date.UTC(2025, 0, 15, 12, 0, 0);

  it("turns a time to live into wire seconds", () => {
    expect(
      expiryFields({ mode: "ttl", amount: "90", unit: "minutes", localDateTime: "" }, now),
    ).toEqual({ ttl: "5400s" });
    expect(
      expiryFields({ mode: "ttl", amount: "2", unit: "days", localDateTime: "" }, now),
    ).toEqual({ ttl: "172800s" });
    expect(
      expiryFields({ mode: "ttl", amount: "0", unit: "hours", localDateTime: "" }, now),
    ).toEqual({ problem: "Enter a time to live greater than 0." });
    expect(
      expiryFields({ mode: "ttl", amount: "", unit: "hours", localDateTime: "" }, now),
    ).toHaveProperty("problem");
  });

  it("turns a local date and time into an RFC 3339 UTC expireTime in the future", () => {
    const later = now + 3 * 3_600_000;
    const value = toLocalDateTimeValue(later);
    expect(
      expiryFields({ mode: "expireTime", amount: "", unit: "hours", localDateTime: value }, now),
    ).toEqual({ expireTime: "2025-01-15T15:00:00Z" });
    expect(
      expiryFields(
        {
          mode: "expireTime",
          amount: "",
          unit: "hours",
          localDateTime: toLocalDateTimeValue(now - 60_000),
        },
        now,
      ),
    ).toEqual({
      problem: "The expiry time must be in the future.",
    });
  });
});
