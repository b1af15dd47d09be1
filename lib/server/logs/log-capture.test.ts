import { describe, expect, it } from "vitest";
import { mayAskForLogging } from "./log-capture";

/**
 * Which callers the observation reads a logging setting for: a caller it skips is never
 * logged, so every caller that can hold a setting (a studio-made key, a person) must count.
 */
describe("mayAskForLogging", () => {
  it("is true for a studio-made key and for a person, false for a configured key", () => {
    expect(
      mayAskForLogging({ ownerId: "studio", key: { id: "k1", name: "a", managed: true } }),
    ).toBe(true);
    expect(mayAskForLogging({ ownerId: "person:p1", person: { id: "p1", role: "member" } })).toBe(
      true,
    );
    expect(
      mayAskForLogging({
        ownerId: "key:plain",
        key: { id: "env:plain", name: "plain", managed: false },
      }),
    ).toBe(false);
    expect(mayAskForLogging({ ownerId: "upload-owner" })).toBe(false);
  });
});
