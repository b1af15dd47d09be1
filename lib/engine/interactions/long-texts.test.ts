/**
 * Long strings of an interaction stored apart, in pieces, on the real databases: what is read
 * back writes exactly the JSON that was stored, its long strings never joined; a string
 * stored for an event is stored once however many values hold it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { wholeJson } from "@/lib/db/stores/interaction-store";
import { ApiError } from "@/lib/gemini/api-error";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { jsonTextPieces } from "@/lib/runtime/json-stringify-in-slices";
import { piecedText, setPiecedText } from "@/lib/runtime/pieced-text";
import { LONG_TEXT_CHARACTERS, LongTextWriter, readStoredJson } from "./long-texts";

const STORED_PIECE = 262_144;
const ID = "v1_long";

/** `length` characters of `unit` over and over, with `marker` first so strings differ early. */
const text = (marker: string, length: number, unit = "ab") =>
  (marker + unit.repeat(Math.ceil(length / unit.length))).slice(0, length);

/** A string whose surrogate pair straddles the first stored piece's end. */
const straddling = text("s", STORED_PIECE - 1) + "😀" + text("t", 1_000);

async function pieceRows(data: TestDatabase): Promise<{ count: number; characters: number }> {
  const row = await data.database.get<{ count: number; characters: number }>(
    "SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(piece)), 0) AS characters FROM interaction_pieces",
  );
  return { count: Number(row!.count), characters: Number(row!.characters) };
}

describe.each(testDatabaseKinds())("long texts of an interaction ($dialect)", (kind) => {
  let data: TestDatabase;
  afterEach(async () => {
    await data.cleanup();
  });

  async function open() {
    data = await kind.open();
    const store = data.stores.interactions;
    await store.create({
      id: ID,
      ownerId: "key:alice",
      previousId: null,
      model: "gemini-2.5-flash-preview-tts",
      agent: null,
      status: "in_progress",
      background: false,
      requestJson: "{}",
      inputContentsJson: "[]",
      outputContents: null,
      result: null,
      seed: 0,
      attempts: 1,
      eventCount: 0,
      createTime: 1_000,
      updateTime: 1_000,
    });
    return store;
  }

  it("reads back what JSON.stringify wrote, long strings as pieces and never joined", async () => {
    const store = await open();
    const pieced = { type: "audio", data: "", mime_type: "audio/L16" };
    // A pieced member cut inside a surrogate pair.
    setPiecedText(pieced, "data", [text("p", 20_000) + "😀".slice(0, 1), "😀".slice(1) + "end"]);
    const value = {
      steps: [
        { type: "thought", signature: "short" },
        {
          type: "model_output",
          content: [
            { type: "audio", data: straddling, mime_type: "audio/L16" },
            pieced,
            { type: "text", text: "short text" },
          ],
        },
      ],
      usage: { total_tokens: 7 },
      // A key that is special to plain objects (computed: an own member), holding a long string.
      ["__proto__"]: text("q", LONG_TEXT_CHARACTERS),
      // Strings inside arrays stay in the JSON.
      list: [text("r", LONG_TEXT_CHARACTERS + 5), 1, null],
    };
    const expected = JSON.stringify(value);
    const stored = await new LongTextWriter(store, ID).write(value);
    expect(stored.json.length).toBeLessThan(LONG_TEXT_CHARACTERS * 2);
    expect(stored.texts).not.toBeNull();

    const read = await readStoredJson<typeof value>(store, ID, stored);
    const audio = read.steps[1]!.content![0]! as Record<string, unknown>;
    expect(piecedText(audio, "data")?.length).toBe(2);
    expect(piecedText(read, "__proto__")).toBeDefined();
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect((await jsonTextPieces(read)).join("")).toBe(expected);
    expect(JSON.stringify(await readStoredJson(store, ID, wholeJson(expected)))).toBe(expected);
  });

  it("stores a string once for the events and the result that hold it, in their order", async () => {
    const store = await open();
    const first = text("a", 32_000);
    const second = text("b", 32_000);
    const writer = new LongTextWriter(store, ID);
    const events = [
      await writer.write({ delta: { type: "audio", data: first }, event_type: "step.delta" }),
      await writer.write({ delta: { type: "audio", data: second }, event_type: "step.delta" }),
    ];
    expect(await pieceRows(data)).toEqual({ count: 2, characters: 64_000 });

    const fresh = text("c", 40_000);
    const result = {
      steps: [{ type: "model_output", content: [{ data: first }, { data: second }] }],
      extra: fresh,
    };
    const outputs = [
      { role: "model", parts: [{ inlineData: { data: first } }, { inlineData: { data: second } }] },
    ];
    const storedResult = await writer.write(result, { reuse: true });
    const storedOutputs = await writer.write(outputs, { reuse: true });
    // Only the string no event held was written.
    expect(await pieceRows(data)).toEqual({ count: 3, characters: 104_000 });
    // Out of order, a string is written again rather than named wrongly.
    const swapped = { content: [{ data: second }, { data: first }] };
    const storedSwapped = await writer.write(swapped, { reuse: true });

    for (const [stored, value] of [
      [events[0]!, { delta: { type: "audio", data: first }, event_type: "step.delta" }],
      [storedResult, result],
      [storedOutputs, outputs],
      [storedSwapped, swapped],
    ] as const)
      expect((await jsonTextPieces(await readStoredJson(store, ID, stored))).join("")).toBe(
        JSON.stringify(value),
      );
  });

  it("reads the engine's bytes back as bytes, the same JSON, stored once", async () => {
    const store = await open();
    const bytes = new Uint8Array(400_001).map((_, index) => (index * 7) % 256);
    const audio = { type: "audio", data: "", mime_type: "audio/L16" };
    setPiecedText(audio, "data", [bytes.subarray(0, 200_000), bytes.subarray(200_000)]);
    const writer = new LongTextWriter(store, ID);
    const event = await writer.write({ delta: audio, event_type: "step.delta" });
    const result = await writer.write({ steps: [{ content: [audio] }] }, { reuse: true });
    const base64 = Buffer.from(bytes).toString("base64");
    expect(await pieceRows(data)).toEqual({ count: 3, characters: base64.length });
    type Media = { data: string };
    const readEvent = await readStoredJson<{ delta: Media }>(store, ID, event);
    const readResult = await readStoredJson<{ steps: { content: Media[] }[] }>(store, ID, result);
    for (const media of [readEvent.delta, readResult.steps[0]!.content[0]!]) {
      const pieces = piecedText(media, "data")!;
      expect(pieces.every((piece) => piece instanceof Uint8Array)).toBe(true);
      expect(media.data).toBe(base64);
    }
    expect((await jsonTextPieces(await readStoredJson(store, ID, event))).join("")).toBe(
      JSON.stringify({
        delta: { type: "audio", data: base64, mime_type: "audio/L16" },
        event_type: "step.delta",
      }),
    );
  });

  it("answers not found once the interaction's pieces are gone, and deletes them with it", async () => {
    const store = await open();
    const stored = await new LongTextWriter(store, ID).write({ data: text("a", 300_000) });
    expect((await pieceRows(data)).count).toBe(2);
    await store.deletePiecesOfGone(ID);
    expect((await pieceRows(data)).count).toBe(2);
    expect(await store.delete(ID)).toBe(true);
    expect(await pieceRows(data)).toEqual({ count: 0, characters: 0 });
    const error = await readStoredJson(store, ID, stored).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).httpStatus).toBe(404);
    // Pieces written for a write the store then refused (the interaction was gone) are deleted.
    await new LongTextWriter(store, ID).write({ data: text("b", 20_000) });
    await store.deletePiecesOfGone(ID);
    expect((await pieceRows(data)).count).toBe(0);
  });
});
