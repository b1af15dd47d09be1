import { describe, expect, it } from "vitest";
import { readingPassedOnUsage } from "./passed-on-usage";

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
});
