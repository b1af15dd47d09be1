import { afterEach, describe, expect, it, vi } from "vitest";

const KEY = "logged-upstream-key-0123456789";
process.env.GEMINI_API_KEY = KEY;
const { logger } = await import("./logger");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the server's log", () => {
  it("holds the upstream key in no encoding an upstream may echo it in", () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((line) => {
      lines.push(String(line));
      return true;
    });
    const bytes = Buffer.from(KEY);
    const spellings = [
      KEY,
      KEY.toUpperCase(),
      [...bytes].map((byte) => `%${byte.toString(16).toUpperCase()}`).join(""),
      bytes.toString("hex"),
      Buffer.from(`ab${KEY}`).toString("base64"),
      Buffer.from(`a${KEY}?`).toString("base64url"),
    ];
    for (const spelling of spellings) logger.warn("upstream answered 400", `key ${spelling} here`);
    expect(lines).toHaveLength(spellings.length);
    lines.forEach((line, index) => {
      expect(line).toContain("[redacted]");
      expect(line).not.toContain(spellings[index]!.slice(4, -4));
    });
  });
});
