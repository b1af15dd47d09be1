import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeText,
  decodedSlices,
  encodedLength,
  isEncodedText,
  sharedCodeUnits,
} from "./encoded-text";
import { jsonTextPieces } from "./json-stringify-in-slices";
import { heldText, setPiecedText } from "./pieced-text";

describe("text held as its code units", () => {
  it("decodes to exactly the string it was made from, lone surrogate halves included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (text) => {
        const encoded = sharedCodeUnits(text);
        expect(decodeText(encoded)).toBe(text);
        expect(encodedLength(encoded)).toBe(text.length);
      }),
      { numRuns: 500 },
    );
    for (const text of ["a\ud800b", "\udc00", "x\ud83d"])
      expect(decodeText(sharedCodeUnits(text))).toBe(text);
  });

  it("is as large as the string: a byte a unit when every unit fits one, else two", () => {
    expect(sharedCodeUnits("plain ASCII, and Latin-1: déjà vu").encoding).toBe("latin1");
    expect(sharedCodeUnits("déjà vu").bytes.byteLength).toBe(7);
    const wide = sharedCodeUnits("naïve \u{1F600} 東京");
    expect(wide.encoding).toBe("utf16le");
    expect(wide.bytes.byteLength).toBe(2 * "naïve \u{1F600} 東京".length);
  });

  it("lives in memory shared between threads, and is recognised as it arrives in a message", () => {
    const encoded = sharedCodeUnits("abc");
    expect(encoded.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const received = structuredClone(encoded);
    expect(received.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(isEncodedText(received)).toBe(true);
    received.bytes[0] = "x".charCodeAt(0);
    // The same memory, not a copy of it.
    expect(decodeText(encoded)).toBe("xbc");
    expect(isEncodedText({ bytes: new Uint8Array(2), encoding: "utf8" })).toBe(false);
    expect(isEncodedText("abc")).toBe(false);
  });

  it("is read a slice at a time as the same text", () => {
    const text = `${"word ".repeat(30_000)}\u{1F600}${"é".repeat(70_000)}`;
    for (const encoded of [sharedCodeUnits(text), sharedCodeUnits(text.replace("\u{1F600}", ""))]) {
      const slices = [...decodedSlices(encoded)];
      expect(slices.length).toBeGreaterThan(2);
      expect(Math.max(...slices.map((slice) => slice.length))).toBeLessThanOrEqual(65_536);
      expect(slices.join("")).toBe(decodeText(encoded));
    }
  });

  it("as pieced text: reads as the text, is written as JSON.stringify writes it, and is handed over as it is held", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "binary", maxLength: 60 }),
        fc.integer({ min: 4, max: 24 }),
        async (text, pieceCharacters) => {
          const encoded = sharedCodeUnits(text);
          const part = { text: "" };
          setPiecedText(part, "text", [encoded]);
          expect(heldText(part, "text")).toBe(encoded);
          expect(part.text).toBe(text);
          const written = (await jsonTextPieces({ parts: [part] }, { pieceCharacters })).join("");
          expect(written).toBe(JSON.stringify({ parts: [{ text }] }));
        },
      ),
      { numRuns: 300 },
    );
    // Anything else is handed over as it reads.
    expect(heldText({ text: "short" }, "text")).toBe("short");
    const pieced = { text: "" };
    setPiecedText(pieced, "text", ["two ", "pieces"]);
    expect(heldText(pieced, "text")).toBe("two pieces");
  });
});
