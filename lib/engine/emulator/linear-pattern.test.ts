import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LinearPattern, PatternError } from "./linear-pattern";

const agree = (source: string, text: string, flags = "u") =>
  expect(LinearPattern.compile(source).test(text)).toBe(new RegExp(source, flags).test(text));

describe("LinearPattern", () => {
  it("matches as JavaScript's regular expressions do on the accepted syntax", () => {
    const cases: Array<[string, string]> = [
      ["order #\\d+", "my order #1234 is late"],
      ["order #\\d+", "my order # is late"],
      ["^hello", "hello world"],
      ["^hello", "say hello"],
      ["world$", "hello world"],
      ["(cat|dog)s?\\b", "two dogs"],
      ["(cat|dog)s?\\b", "catsup"],
      ["a{2,3}b", "caaab"],
      ["a{2,3}b", "cab"],
      ["[^a-c]x", "bx dx"],
      ["[^a-c]x", "bx"],
      ["colou?r", "color"],
      ["\\bword\\b", "a word here"],
      ["\\Bord", "a word"],
      ["x.y", "x\ny"],
      ["(?:ab)+c", "abababc"],
      ["(?<year>\\d{4})-\\d{2}", "on 2024-05-01"],
      ["\\u{1F600}", "smile 😀"],
      ["[\\d\\s]+z", "12 3z"],
      ["", "anything"],
      ["a|", "b"],
    ];
    for (const [source, text] of cases) agree(source, text);
  });

  it("ignores case after (?i)", () => {
    expect(LinearPattern.compile("(?i)weather in [a-z]+").test("WEATHER IN PARIS")).toBe(true);
    expect(LinearPattern.compile("weather").test("WEATHER")).toBe(false);
  });

  it("refuses what needs backtracking, saying what and where", () => {
    expect(() => LinearPattern.compile("(a)\\1")).toThrow(/backreference.*position 3/);
    expect(() => LinearPattern.compile("a(?=b)")).toThrow(/lookaround/);
    expect(() => LinearPattern.compile("(?<!x)y")).toThrow(/lookaround/);
    expect(() => LinearPattern.compile("a{2000}")).toThrow(PatternError);
    expect(() => LinearPattern.compile("(a")).toThrow(/unclosed/);
    expect(() => LinearPattern.compile("a)")).toThrow(/unmatched/);
    expect(() => LinearPattern.compile("*a")).toThrow(/nothing to repeat/);
    expect(() => LinearPattern.compile("\\q")).toThrow(/unknown escape/);
  });

  it("answers the classic catastrophic pattern at once, linear in the text", () => {
    const pattern = LinearPattern.compile("(a+)+$");
    const text = "a".repeat(100_000) + "!";
    const started = performance.now();
    expect(pattern.test(text)).toBe(false);
    // A backtracking engine takes longer than the universe's age on this; generous bound.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("agrees with RegExp on random patterns of a small alphabet", () => {
    const atom = fc.constantFrom("a", "b", ".", "[ab]", "[^a]", "\\d", "(a|b)", "(?:ab)", "^", "$");
    const quantifier = fc.constantFrom("", "*", "+", "?", "{1,2}", "{2}");
    const pattern = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 })
      .map((items) => items.map(([a, q]) => (a === "^" || a === "$" ? a : a + q)).join(""));
    fc.assert(
      fc.property(pattern, fc.stringMatching(/^[ab1 ]{0,12}$/), (source, text) => {
        expect(LinearPattern.compile(source).test(text)).toBe(new RegExp(source, "u").test(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(pattern, fc.stringMatching(/^[abAB1 ]{0,12}$/), (source, text) => {
        expect(LinearPattern.compile(`(?i)${source}`).test(text)).toBe(
          new RegExp(source, "iu").test(text),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
