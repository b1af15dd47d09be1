import { describe, expect, it } from "vitest";
import { splicedPieces, stringSpansUnder } from "./json-string-spans";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text` as bytes cut into pieces of `size`. */
function piecesOf(text: string, size: number): Uint8Array[] {
  const bytes = encoder.encode(text);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.slice(at, at + size));
  return pieces;
}

const BODY = `{"a": {"fileUri": "files/x", "other": "fileUri"}, "fileUri" : "caf\\u00e9 \\"q\\"",
  "list": {"fileUri": ["files/y"]}, "t\\u0065xt": "fileUri", "file_uri":"é"}`;

describe("string spans under keys", () => {
  it("finds the string values of the keys, however the body is cut into pieces", () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      const pieces = piecesOf(BODY, size);
      const spans = stringSpansUnder(pieces, new Set(["fileUri", "file_uri"]));
      expect(
        spans.map((span) => [span.key, span.value]),
        `${size}`,
      ).toEqual([
        ["fileUri", "files/x"],
        ["fileUri", 'café "q"'],
        ["file_uri", "é"],
      ]);
      const replaced = splicedPieces(
        pieces,
        spans.map((span) => ({ ...span, text: JSON.stringify(span.value.toUpperCase()) })),
      );
      const text = replaced.map((piece) => decoder.decode(piece, { stream: true })).join("");
      expect(JSON.parse(text), `${size}`).toEqual({
        ...(JSON.parse(BODY) as object),
        a: { fileUri: "FILES/X", other: "fileUri" },
        fileUri: 'CAFÉ "Q"',
        file_uri: "É",
      });
    }
  });

  it("leaves a body with no replacement as it was", () => {
    const pieces = piecesOf(BODY, 5);
    expect(splicedPieces(pieces, [])).toEqual(pieces);
  });

  it("jumps through long strings, escapes included, in linear time", () => {
    const body = `{"data": "${"\\n".repeat(2_000_000)}", "fileUri": "files/z"}`;
    const started = performance.now();
    const spans = stringSpansUnder(piecesOf(body, 65_536), new Set(["fileUri"]));
    expect(spans.map((span) => span.value)).toEqual(["files/z"]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
