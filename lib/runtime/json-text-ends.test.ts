import { describe, expect, it } from "vitest";
import { jsonContainerEnd, jsonStringEnd, TEXT_ENDED } from "./json-text-ends";

describe("where JSON values end, within a limit", () => {
  it("finds a string's closing quote past escaped quotes and backslashes", () => {
    const text = String.raw`"a\"b\\"," tail"`;
    expect(jsonStringEnd(text, 1, text.length)).toBe(8);
    expect(text.slice(0, 8)).toBe(String.raw`"a\"b\\"`);
  });

  it("says -1 when the end is past the limit, and TEXT_ENDED when the text ends first", () => {
    const text = `"${"x".repeat(100)}"`;
    expect(jsonStringEnd(text, 1, 50)).toBe(-1);
    expect(jsonStringEnd(text, 1, text.length)).toBe(text.length);
    expect(jsonStringEnd(`"unclosed`, 1, 100)).toBe(TEXT_ENDED);
  });

  it("ends a container at its own closing bracket, brackets inside strings not counted", () => {
    const text = `{"a":[1,{"b":"]}"}],"c":2},3`;
    expect(jsonContainerEnd(text, 0, text.length)).toBe(text.indexOf(",3"));
    expect(jsonContainerEnd(text, 0, 10)).toBe(-1);
    expect(jsonContainerEnd(`[1,[2,3]`, 0, 100)).toBe(TEXT_ENDED);
    expect(jsonContainerEnd(`[1,"]`, 0, 100)).toBe(TEXT_ENDED);
  });
});
