import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createScrubber } from "./scrubber";

const KEY = "upstream-Secret-key-0123456789xyz";
const BASE = "http://upstream.internal:8080";
const scrubber = createScrubber(KEY, BASE);

/** The key in every spelling a careless or hostile upstream could echo it in. */
function keySpellings(): Record<string, string> {
  const bytes = Buffer.from(KEY);
  const spellings: Record<string, string> = {
    plain: KEY,
    "upper case": KEY.toUpperCase(),
    "lower case": KEY.toLowerCase(),
    "percent-encoded, every byte": [...bytes].map((byte) => `%${byte.toString(16)}`).join(""),
    "percent-encoded, upper-case hex": [...bytes]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join(""),
    hex: bytes.toString("hex"),
  };
  for (const prefix of ["", "a", "ab", "abc"]) {
    spellings[`base64 after ${prefix.length} bytes`] = Buffer.from(prefix + KEY + "tail").toString(
      "base64",
    );
    spellings[`base64url after ${prefix.length} bytes`] = Buffer.from(prefix + KEY + "?>").toString(
      "base64url",
    );
  }
  return spellings;
}

function holdsSecret(text: string): boolean {
  const decoded = [text, text.toLowerCase()];
  return decoded.some(
    (value) => value.includes(KEY.toLowerCase()) || value.includes("upstream.internal:8080"),
  );
}

describe("scrubber", () => {
  it("removes the key in every encoding and the upstream's origin from text", () => {
    for (const [label, spelling] of Object.entries(keySpellings())) {
      const scrubbed = scrubber.text(`before ${spelling} after`);
      expect(scrubbed, label).toContain("[redacted]");
      expect(scrubbed, label).not.toContain(spelling);
    }
    expect(scrubber.text(`see ${BASE}/v1beta/files/abc and HTTP://UPSTREAM.INTERNAL:8080/x`)).toBe(
      "see /v1beta/files/abc and /x",
    );
    expect(scrubber.text("retry at https://elsewhere/x?key=anything-at-all&y=1")).toBe(
      "retry at https://elsewhere/x?key=[redacted]&y=1",
    );
  });

  it("scrubs every string of a JSON value, property names included, and keeps it JSON", () => {
    const value = {
      candidates: [
        {
          content: { parts: [{ text: `the key is ${KEY.toUpperCase()}` }] },
          citationMetadata: { citationSources: [{ uri: `${BASE}/v1beta/files/abc` }] },
        },
      ],
      [KEY]: { inline: Buffer.from(`x${KEY}`).toString("base64") },
    };
    const scrubbed = scrubber.json(value);
    const text = JSON.stringify(scrubbed);
    expect(holdsSecret(text)).toBe(false);
    expect(scrubbed.candidates[0]!.citationMetadata.citationSources[0]!.uri).toBe(
      "/v1beta/files/abc",
    );
    const clean = { candidates: [{ content: { parts: [{ text: "nothing to see" }] } }] };
    expect(scrubber.json(clean)).toBe(clean);
  });

  it("scrubs text that arrives in pieces however it is cut, JSON escapes included", async () => {
    const escapedKey = [...KEY]
      .map((character) => `\\u00${character.charCodeAt(0).toString(16)}`)
      .join("");
    const body = JSON.stringify({
      a: `${KEY} and ${BASE}/v1beta/files/x`,
      b: Object.values(keySpellings()).join(" | "),
    }).replace("}", `,"c":"${escapedKey}","d":"${BASE.replace(/\//g, "\\/")}\\/y"}`);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: body.length }), { maxLength: 20 }), async (cuts) => {
        const points = [0, ...new Set(cuts)].sort((a, b) => a - b);
        const pieces = points.map((point, index) => body.slice(point, points[index + 1]));
        const streaming = scrubber.pieces();
        let out = "";
        for (const piece of pieces) out += streaming.push(piece);
        out += streaming.end();
        expect(holdsSecret(out)).toBe(false);
        expect(holdsSecret(JSON.stringify(JSON.parse(out)))).toBe(false);
        expect(JSON.parse(out).a).toBe("[redacted] and /v1beta/files/x");
      }),
      { numRuns: 100 },
    );
  });
});
