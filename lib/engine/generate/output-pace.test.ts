import { describe, expect, it } from "vitest";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { paceOutput } from "./output-pace";

/** Chunks of `size` output tokens each, with running usage as the engine writes it. */
async function* chunks(count: number, size: number): AsyncGenerator<GenerateContentResponse> {
  for (let index = 1; index <= count; index++)
    yield {
      candidates: [{ content: { role: "model", parts: [{ text: `chunk ${index}` }] } }],
      usageMetadata: { candidatesTokenCount: index * size, totalTokenCount: index * size },
    };
}

async function collect(source: AsyncIterable<GenerateContentResponse>): Promise<string[]> {
  const texts: string[] = [];
  for await (const chunk of source) texts.push(chunk.candidates![0]!.content!.parts![0]!.text!);
  return texts;
}

describe("paceOutput", () => {
  it("holds chunks back until their tokens are due at the rate", async () => {
    const started = performance.now();
    const texts = await collect(paceOutput(chunks(4, 50), 1000));
    // 200 tokens at 1,000 a second: the last chunk is due 200 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(texts).toEqual(["chunk 1", "chunk 2", "chunk 3", "chunk 4"]);
  });

  it("passes chunks on at once when the rate is not reached", async () => {
    const texts = await collect(paceOutput(chunks(3, 1), 1_000_000));
    expect(texts).toHaveLength(3);
  });

  it("ends the stream when the signal aborts during a wait", async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const chunk of paceOutput(chunks(100, 100), 1000, controller.signal)) {
        seen.push(chunk.candidates![0]!.content!.parts![0]!.text!);
        if (seen.length === 2) controller.abort();
      }
    })();
    await reading;
    expect(seen).toEqual(["chunk 1", "chunk 2"]);
  });
});
