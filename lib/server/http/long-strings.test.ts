import { describe, expect, it } from "vitest";
import { bodyOfOutcome } from "./body-reader-client";
import { answerBodyReaderRequest, readBodyText } from "./body-readers";
import { LONG_STRING_CHARACTERS, putBackLongStrings, setAsideLongStrings } from "./long-strings";

describe("long strings of a body read in the worker", () => {
  it("come back beside the JSON text, not in it, and are put back where they were", async () => {
    const long = (letter: string) => letter.repeat(LONG_STRING_CHARACTERS);
    const body = {
      contents: [
        { parts: [{ text: "short" }, { text: long("a") }] },
        {
          role: "user",
          parts: [{ inlineData: { mimeType: "application/pdf", data: long("Q") } }],
        },
      ],
      systemInstruction: { parts: [{ text: `${long("b")}\u{1F600}"quoted"` }] },
    };
    const text = JSON.stringify(body);
    const bytes = new TextEncoder().encode(text);
    const reply = answerBodyReaderRequest({
      id: 1,
      reader: "generateContent",
      bytes: [bytes],
      size: bytes.length,
    });
    expect(reply.kind).toBe("value");
    if (reply.kind !== "value") return;
    expect(reply.json.length).toBeLessThan(1_000);
    expect(reply.long?.map((entry) => entry.path.join("."))).toEqual(
      expect.arrayContaining([
        "contents.0.parts.1.text",
        "contents.1.parts.0.inlineData.data",
        "systemInstruction.parts.0.text",
      ]),
    );
    expect(await bodyOfOutcome(reply)).toStrictEqual(readBodyText(text, "generateContent"));
  });

  it("leave short strings, numbers and structure as they are", () => {
    const value = { a: ["x", 1, { b: "y".repeat(LONG_STRING_CHARACTERS) }], c: null };
    const setAside = setAsideLongStrings(value);
    expect(value).toEqual({ a: ["x", 1, { b: "" }], c: null });
    putBackLongStrings(value, setAside);
    expect(value.a[2]).toEqual({ b: "y".repeat(LONG_STRING_CHARACTERS) });
  });
});
