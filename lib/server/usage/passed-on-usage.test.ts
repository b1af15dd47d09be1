import { describe, expect, it } from "vitest";
import { passingOnUsage, readingPassedOnUsage } from "./passed-on-usage";

async function drain(pieces: string[]) {
  let found: unknown = "not ended";
  const source = (async function* () {
    yield* pieces;
  })();
  const reading = readingPassedOnUsage(source, (usage) => (found = usage));
  let text = "";
  for (let next = await reading.next(); !next.done; next = await reading.next()) text += next.value;
  return { text, found };
}

describe("usage of an answer passed on as text", () => {
  it("finds usageMetadata wherever the pieces cut it and passes the text unchanged", async () => {
    const answer = JSON.stringify({
      candidates: [{ content: { parts: [{ inlineData: { data: "A".repeat(5000) } }] } }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 1290, totalTokenCount: 1297 },
      modelVersion: "gemini-2.5-flash-image",
    });
    for (const size of [1, 3, 7, 64, 4096, answer.length]) {
      const pieces: string[] = [];
      for (let at = 0; at < answer.length; at += size) pieces.push(answer.slice(at, at + size));
      const { text, found } = await drain(pieces);
      expect(text).toBe(answer);
      expect(found).toEqual({
        promptTokenCount: 7,
        candidatesTokenCount: 1290,
        totalTokenCount: 1297,
      });
    }
  });

  it("ends with nothing when the answer has no usage", async () => {
    expect((await drain(['{"candidates":[]}'])).found).toBeUndefined();
  });

  it("skips the name where no object follows it, and a value that only looks like one", async () => {
    const answer = JSON.stringify({
      tool: "usageMetadata",
      text: 'She wrote "usageMetadata": {"promptTokenCount": 99}',
      usageMetadata: { promptTokenCount: 3, totalTokenCount: 5 },
    });
    for (const size of [1, 2, 5, answer.length]) {
      const pieces: string[] = [];
      for (let at = 0; at < answer.length; at += size) pieces.push(answer.slice(at, at + size));
      expect((await drain(pieces)).found).toEqual({ promptTokenCount: 3, totalTokenCount: 5 });
    }
  });
});

describe("usage of a body of bytes passed on", () => {
  async function pass(text: string, size: number) {
    const bytes = new TextEncoder().encode(text);
    let found: unknown = "not ended";
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += size)
          controller.enqueue(bytes.slice(at, at + size));
        controller.close();
      },
    });
    const passed = await new Response(
      passingOnUsage(body, "usage", (usage) => (found = usage)),
    ).text();
    return { passed, found };
  }

  it("finds an OpenAI-compatible stream's last usage, after chunks whose usage is null", async () => {
    const chunk = (usage: unknown, text: string) =>
      `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ delta: { content: text } }], usage })}\n\n`;
    const stream =
      chunk(null, "Rivers ") +
      chunk(null, 'run é "usage": {}') +
      `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 9, total_tokens: 20 } })}\n\n` +
      "data: [DONE]\n\n";
    // Pieces that cut characters of several bytes in two are decoded whole.
    for (const size of [1, 3, 17, stream.length]) {
      const { passed, found } = await pass(stream, size);
      expect(passed).toBe(stream);
      expect(found).toEqual({ prompt_tokens: 4, completion_tokens: 9, total_tokens: 20 });
    }
    expect((await pass('{"choices": []}', 4)).found).toBeUndefined();
  });
});
