import { describe, expect, it } from "vitest";
import { formatRemaining } from "./expiry-countdown";

describe("formatRemaining", () => {
  it("reads like a countdown and says expired at zero", () => {
    expect(formatRemaining(48 * 3_600_000)).toBe("2 d 0 h");
    expect(formatRemaining(47 * 3_600_000 + 59 * 60_000 + 30_000)).toBe("1 d 23 h");
    expect(formatRemaining(5 * 3_600_000 + 7 * 60_000)).toBe("5 h 7 min");
    expect(formatRemaining(3_599_000)).toBe("59 min 59 s");
    expect(formatRemaining(9_400)).toBe("9 s");
    expect(formatRemaining(0)).toBe("expired");
    expect(formatRemaining(-5)).toBe("expired");
  });
});
