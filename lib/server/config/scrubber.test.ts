import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createScrubber, createSecretsScrubber } from "./scrubber";

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

  it("scrubs a text that reaches the client in deltas, a secret split anywhere in any spelling", () => {
    for (const [label, spelling] of Object.entries(keySpellings())) {
      const text = `Here it is: ${spelling} and that was it.`;
      for (let first = 1; first < text.length; first += 3)
        for (const second of [first + 1, first + 5, text.length]) {
          const deltas = scrubber.deltas();
          const parts = [text.slice(0, first), text.slice(first, second), text.slice(second)];
          const shown = parts.map((part) => deltas.push(part)).join("") + deltas.end();
          expect(shown, `${label} cut at ${first}, ${second}`).toContain("[redacted]");
          // At most the secret's first few characters were shown before it could be told apart.
          expect(shown, `${label} cut at ${first}, ${second}`).not.toContain(spelling.slice(0, 16));
        }
    }
  });

  it("passes deltas without a secret's beginning through as they are", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 12 }), (parts) => {
        const deltas = scrubber.deltas();
        for (const part of parts.filter((text) => !/[%u]/i.test(text)))
          expect(deltas.push(part)).toBe(part);
      }),
      { numRuns: 200 },
    );
    const deltas = scrubber.deltas();
    expect(deltas.push("the upstream said upstrea")).toBe("the upstream said upstrea");
    expect(deltas.push("it said: upstream-Secret-")).toBe("it said: ");
    expect(deltas.push("nothing more")).toBe("upstream-Secret-nothing more");
  });

  it("scrubs log lines of every secret in every spelling", () => {
    const logs = createSecretsScrubber([KEY, "an-access-code-1234", "short"]);
    for (const [label, spelling] of Object.entries(keySpellings()))
      expect(logs.text(`upstream said ${spelling}`), label).toContain("[redacted]");
    expect(logs.text("code AN-ACCESS-CODE-1234 short")).toBe("code [redacted] short");
    expect(logs.text(`at ${BASE}/x?key=abc`)).toBe(`at ${BASE}/x?key=[redacted]`);
  });
});
