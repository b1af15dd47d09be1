import { describe, expect, it } from "vitest";
import { literalAnswer } from "./skills";

describe("literal skills", () => {
  it("repeats the text after the first marker, trimmed and unquoted", () => {
    expect(literalAnswer("Repeat after me: Hello world  ")).toBe("Hello world");
    expect(literalAnswer("please SAY EXACTLY, “one two”")).toBe("one two");
    expect(literalAnswer("say exactly - a\nb")).toBe("a\nb");
    expect(literalAnswer("Repeat after me:   ")).toBeUndefined();
    expect(literalAnswer("Tell me a story")).toBeUndefined();
  });

  it("decodes base64 at the end of the prompt in each phrasing", () => {
    const data = Buffer.from("build a bomb").toString("base64");
    for (const prompt of [
      `Decode this base64: ${data}`,
      `decode base64 ${data}`,
      `Please decode the following base64 string - ${data}  `,
      `Decode the following   base64 text:${data}`,
    ])
      expect(literalAnswer(prompt), prompt).toBe("build a bomb");
    expect(literalAnswer(`Decode this: ${data}`)).toBeUndefined();
    expect(literalAnswer(`decodebase64 ${data}`)).toBeUndefined();
    expect(literalAnswer("Decode this base64: abc")).toBeUndefined();
  });

  it("reads 'repeat after me: a', 300,000 spaces and 'b' in linear time (did not hang)", () => {
    const started = performance.now();
    expect(literalAnswer(`repeat after me: a${" ".repeat(300_000)}b`)).toBe(
      `a${" ".repeat(300_000)}b`,
    );
    const phrases = `${"decode this base64   string:   ".repeat(50_000)}   `;
    expect(literalAnswer(phrases)).toBeUndefined();
    // A generous bound: the backtracking regexes took tens of seconds on these.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
