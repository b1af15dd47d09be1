import { describe, expect, it } from "vitest";
import { SPEECH_CHUNK_SAMPLES, speechChunks, speechTokens } from "./speech";

describe("speechChunks", () => {
  it("makes typed chunks of half a second, never past the cap", () => {
    const chunks = [...speechChunks("Hello there. ".repeat(50), "Kore", 30_000)];
    expect(chunks.every((chunk) => chunk instanceof Int16Array)).toBe(true);
    expect(chunks.map((chunk) => chunk.length)).toEqual([
      SPEECH_CHUNK_SAMPLES,
      SPEECH_CHUNK_SAMPLES,
      6_000,
    ]);
  });

  it("reads no more of the text than the cap lets it say", () => {
    let read = 0;
    const text = {
      *[Symbol.iterator]() {
        for (;;) {
          read += 1;
          yield "a";
        }
      },
    };
    const chunks = [...speechChunks(text as unknown as string, "Kore", 48_000)];
    expect(chunks.reduce((sum, chunk) => sum + chunk.length, 0)).toBe(48_000);
    // 1,560 samples a letter: 31 letters fill 48,000 samples.
    expect(read).toBeLessThan(40);
  });

  it("is the same for the same text and voice, and speaks the whole of a short text", () => {
    const first = [...speechChunks("Have a wonderful day!", "Puck")];
    const again = [...speechChunks("Have a wonderful day!", "Puck")];
    expect(first).toEqual(again);
    const samples = first.reduce((sum, chunk) => sum + chunk.length, 0);
    expect(samples).toBeGreaterThan(24_000);
    expect(speechTokens(samples)).toBe(Math.round(samples / 750));
  });
});
