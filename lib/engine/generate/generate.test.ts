import { describe, expect, it } from "vitest";
import { generationStats, streamGenerateContent } from "./index";
import { requireModel } from "@/lib/engine/catalog";
import { answerText, collect, generateContent, inputFor, plain } from "@/lib/testing/generation";

describe("generateContent on the local model", () => {
  it("answers with text, usage, modelVersion and responseId", async () => {
    const response = await generateContent(plain("How do I bake bread at home?"));
    const candidate = response.candidates![0]!;
    expect(answerText(response).length).toBeGreaterThan(0);
    expect(candidate.finishReason).toBe("STOP");
    expect(candidate.index).toBe(0);
    expect(response.modelVersion).toBe("gemini-2.5-flash");
    expect(response.responseId).toMatch(/^[A-Za-z0-9_-]{22,23}$/);
    const usage = response.usageMetadata!;
    expect(usage.promptTokenCount).toBe(9);
    expect(usage.candidatesTokenCount).toBeGreaterThan(0);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount!);
    expect(usage.thoughtsTokenCount).toBeUndefined();
    // 2.5's answers itemise no candidate tokens and report the tier (answer-shape.test.ts).
    expect(usage.candidatesTokensDetails).toBeUndefined();
    expect(usage.serviceTier).toBe("standard");
  });

  it("repeats the answer for the same seed and varies it without one", async () => {
    const config = { seed: 1234, temperature: 1 };
    const first = answerText(
      await generateContent(plain("Tell me about the moon and the stars.", config)),
    );
    const second = answerText(
      await generateContent(plain("Tell me about the moon and the stars.", config)),
    );
    expect(second).toBe(first);
    const unseeded = new Set<string>();
    for (let attempt = 0; attempt < 6; attempt++)
      unseeded.add(
        answerText(
          await generateContent(plain("Tell me about the moon and the stars.", { temperature: 1 })),
        ),
      );
    expect(unseeded.size).toBeGreaterThan(1);
    const otherSeeds = new Set<string>();
    for (let seed = 0; seed < 6; seed++)
      otherSeeds.add(
        answerText(
          await generateContent(
            plain("Tell me about the moon and the stars.", { seed, temperature: 1 }),
          ),
        ),
      );
    expect(otherSeeds.size).toBeGreaterThan(1);
  });

  it("answers an open question with more than one stray line, whatever the seed", async () => {
    for (let seed = 0; seed < 120; seed++) {
      const response = await generateContent(
        plain("Tell me about lighthouses.", { seed, temperature: 1, maxOutputTokens: 120 }),
      );
      expect(response.usageMetadata!.candidatesTokenCount).toBeGreaterThanOrEqual(24);
      expect(answerText(response).length).toBeGreaterThan(60);
    }
  });

  it("is greedy at temperature 0 and with topK 1", async () => {
    const greedy = answerText(
      await generateContent(plain("Explain how rainbows form.", { temperature: 0 })),
    );
    expect(
      answerText(await generateContent(plain("Explain how rainbows form.", { temperature: 0 }))),
    ).toBe(greedy);
    expect(
      answerText(
        await generateContent(
          plain("Explain how rainbows form.", { temperature: 1, topK: 1, seed: 9 }),
        ),
      ),
    ).toBe(greedy);
  });

  it("cuts at a stop sequence and leaves it out, in the stream as well", async () => {
    const full = answerText(
      await generateContent(plain("Explain how rainbows form.", { temperature: 0 })),
    );
    const words = full.split(" ");
    expect(words.length).toBeGreaterThan(6);
    const stop = ` ${words[4]} ${words[5]}`;
    const cut = full.slice(0, full.indexOf(stop));
    const response = await generateContent(
      plain("Explain how rainbows form.", { temperature: 0, stopSequences: [stop] }),
    );
    expect(answerText(response)).toBe(cut);
    expect(response.candidates![0]!.finishReason).toBe("STOP");
    const chunks = await collect(
      plain("Explain how rainbows form.", { temperature: 0, stopSequences: [stop] }),
    );
    expect(chunks.map((chunk) => answerText(chunk)).join("")).toBe(cut);
  });

  it("bounds the answer with maxOutputTokens and says MAX_TOKENS", async () => {
    const response = await generateContent(
      plain("Write a long story about a lighthouse.", { maxOutputTokens: 5, temperature: 0 }),
    );
    expect(response.candidates![0]!.finishReason).toBe("MAX_TOKENS");
    expect(response.usageMetadata!.candidatesTokenCount).toBe(5);
  });

  it("returns candidateCount candidates with their index, not all identical", async () => {
    const response = await generateContent(
      plain("Give me an idea for dinner.", { candidateCount: 3, seed: 5, temperature: 1.2 }),
    );
    expect(response.candidates!.map((candidate) => candidate.index)).toEqual([0, 1, 2]);
    const texts = response.candidates!.map((_, index) => answerText(response, index));
    expect(new Set(texts).size).toBeGreaterThan(1);
    const total = response.candidates!.length;
    expect(total).toBe(3);
  });

  it("reports logprobs: chosen and top candidates with real probabilities", async () => {
    const response = await generateContent(
      plain("What is a database?", { responseLogprobs: true, logprobs: 5, seed: 3 }),
    );
    const candidate = response.candidates![0]!;
    const chosen = candidate.logprobsResult!.chosenCandidates!;
    const top = candidate.logprobsResult!.topCandidates!;
    expect(chosen.length).toBe(response.usageMetadata!.candidatesTokenCount);
    expect(top.length).toBe(chosen.length);
    for (const [step, entry] of top.entries()) {
      const candidates = entry.candidates!;
      expect(candidates.length).toBeGreaterThan(0);
      expect(candidates.length).toBeLessThanOrEqual(5);
      const probabilities = candidates.map((item) => Math.exp(item.logProbability!));
      expect(probabilities.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(1 + 1e-9);
      for (let index = 1; index < candidates.length; index++)
        expect(candidates[index]!.logProbability!).toBeLessThanOrEqual(
          candidates[index - 1]!.logProbability!,
        );
      expect(chosen[step]!.logProbability!).toBeLessThanOrEqual(0);
      expect(typeof chosen[step]!.token).toBe("string");
      expect(Number.isInteger(chosen[step]!.tokenId)).toBe(true);
    }
    const mean = chosen.reduce((sum, item) => sum + item.logProbability!, 0) / chosen.length;
    expect(candidate.avgLogprobs).toBeCloseTo(mean, 9);
    // The text is exactly the chosen tokens.
    expect(chosen.map((item) => item.token).join("")).toBe(answerText(response));
  });

  it("applies presence and frequency penalties", async () => {
    // A large negative frequency penalty makes the model loop (one token, or one sentence)
    // until maxOutputTokens; without it answers end on their own.
    const looping = async (frequencyPenalty: number) => {
      let count = 0;
      for (let seed = 0; seed < 6; seed++) {
        const response = await generateContent(
          plain("Say something.", {
            frequencyPenalty,
            maxOutputTokens: 600,
            seed,
            responseLogprobs: true,
          }),
        );
        const candidate = response.candidates![0]!;
        if (candidate.finishReason !== "MAX_TOKENS") continue;
        const ids = candidate.logprobsResult!.chosenCandidates!.map((item) => item.tokenId);
        expect(new Set(ids.slice(-100)).size).toBeLessThanOrEqual(20);
        count += 1;
      }
      return count;
    };
    const withPenalty = await looping(-1.99);
    expect(withPenalty).toBeGreaterThan(0);
    expect(withPenalty).toBeGreaterThan(await looping(0));
  });

  it("streams deltas with running usage, one responseId and finishReason only on the last chunk", async () => {
    const story =
      "Once there was a lighthouse keeper who counted the ships that passed each night. "
        .repeat(5)
        .trim();
    const long = await collect(plain(`Repeat after me: ${story}`));
    expect(long.length).toBeGreaterThan(3);
    expect(long.map((chunk) => answerText(chunk)).join("")).toBe(story);
    const chunks = await collect(
      plain("Write a long story about a lighthouse.", { maxOutputTokens: 120, seed: 4 }),
    );
    const ids = new Set(chunks.map((chunk) => chunk.responseId));
    expect(ids.size).toBe(1);
    let previous = 0;
    for (const [index, chunk] of chunks.entries()) {
      expect(chunk.modelVersion).toBe("gemini-2.5-flash");
      const count = chunk.usageMetadata!.candidatesTokenCount ?? 0;
      expect(count).toBeGreaterThanOrEqual(previous);
      previous = count;
      const reason = chunk.candidates![0]!.finishReason;
      if (index < chunks.length - 1) expect(reason).toBeUndefined();
      else expect(reason).toBeDefined();
    }
    const unary = await generateContent(
      plain("Write a long story about a lighthouse.", { maxOutputTokens: 120, seed: 4 }),
    );
    expect(chunks.map((chunk) => answerText(chunk)).join("")).toBe(answerText(unary));
    expect(chunks.at(-1)!.usageMetadata).toEqual(unary.usageMetadata);
  });

  it("refuses input over the model's input token limit before streaming", async () => {
    const input = inputFor("gemini-2.5-flash-preview-tts", "word ".repeat(9000), {
      responseModalities: ["AUDIO"],
    });
    await expect(generateContent(input)).rejects.toMatchObject({
      httpStatus: 400,
      message: expect.stringMatching(
        /^The input token count \(\d+\) exceeds the maximum number of tokens allowed \(8192\)\.$/,
      ),
    });
  });

  it("reports cached content tokens inside the prompt count", async () => {
    const input = plain("Summarise the notes.");
    input.cachedContentTokenCount = 4;
    input.request.contents.unshift({ role: "user", parts: [{ text: "Notes: buy milk" }] });
    const response = await generateContent(input);
    expect(response.usageMetadata!.cachedContentTokenCount).toBe(4);
    expect(response.usageMetadata!.promptTokenCount).toBeGreaterThan(4);
  });

  it("echoes the conversation's vocabulary", async () => {
    const words = ["zanzibarian", "quillotine"];
    let hits = 0;
    for (let seed = 0; seed < 5; seed++) {
      const text = answerText(
        await generateContent(
          plain(
            "Tell me more about the zanzibarian quillotine and why the zanzibarian quillotine matters.",
            { seed, maxOutputTokens: 120 },
            {
              systemInstruction: {
                parts: [
                  {
                    text: "You talk about the zanzibarian quillotine, a zanzibarian quillotine invention.",
                  },
                ],
              },
            },
          ),
        ),
      );
      if (words.some((word) => text.toLowerCase().includes(word))) hits += 1;
    }
    expect(hits).toBeGreaterThan(0);
  });
});

describe("thinking", () => {
  it("counts thoughts and shows them only with includeThoughts", async () => {
    const hidden = await generateContent(
      inputFor("gemini-2.5-flash", "Why is the sky blue?", { seed: 1 }),
    );
    expect(hidden.usageMetadata!.thoughtsTokenCount).toBeGreaterThan(0);
    expect(hidden.candidates![0]!.content!.parts.some((part) => part.thought)).toBe(false);
    expect(hidden.usageMetadata!.totalTokenCount).toBe(
      hidden.usageMetadata!.promptTokenCount! +
        hidden.usageMetadata!.candidatesTokenCount! +
        hidden.usageMetadata!.thoughtsTokenCount!,
    );
    const shown = await generateContent(
      inputFor("gemini-2.5-flash", "Why is the sky blue?", {
        seed: 1,
        thinkingConfig: { includeThoughts: true },
      }),
    );
    const parts = shown.candidates![0]!.content!.parts;
    expect(parts[0]!.thought).toBe(true);
    expect(parts[0]!.text!.length).toBeGreaterThan(0);
    // 2.5 signs only answers to requests that declare functions (answer-shape.test.ts).
    expect(parts.find((part) => !part.thought)!.thoughtSignature).toBeUndefined();
  });

  it("honours thinkingBudget: 0 turns thinking off, a small budget bounds it", async () => {
    const off = await generateContent(
      inputFor("gemini-2.5-flash", "Why is the sky blue?", {
        thinkingConfig: { thinkingBudget: 0 },
      }),
    );
    expect(off.usageMetadata!.thoughtsTokenCount).toBeUndefined();
    const small = await generateContent(
      inputFor("gemini-2.5-flash", "Why is the sky blue?", {
        thinkingConfig: { thinkingBudget: 8 },
        seed: 2,
      }),
    );
    expect(small.usageMetadata!.thoughtsTokenCount).toBe(8);
  });

  it("runs to the family's length for the kind of ask, seeded or not (thinking-length.ts)", async () => {
    const { thinkingLength } = requireModel("gemini-3-pro-preview", "generateContent");
    for (const config of [{}, { seed: 5 }, { temperature: 2 }]) {
      const response = await generateContent(
        inputFor("gemini-3-pro-preview", "Why is the sky blue?", config),
      );
      expect(response.usageMetadata!.thoughtsTokenCount).toBe(thinkingLength!.plain);
    }
    const json = await generateContent(
      inputFor("gemini-3-pro-preview", "Is a banana a fruit?", {
        responseMimeType: "application/json",
      }),
    );
    expect(json.usageMetadata!.thoughtsTokenCount).toBe(thinkingLength!.structuredOutput);
  });

  it("does not think on models without thinking, nor on flash-lite by default", async () => {
    const plainModel = await generateContent(inputFor("gemini-2.0-flash", "Why is the sky blue?"));
    expect(plainModel.usageMetadata!.thoughtsTokenCount).toBeUndefined();
    expect(plainModel.usageMetadata!.promptTokenCount).toBe(6);
    const lite = await generateContent(inputFor("gemini-2.5-flash-lite", "Why is the sky blue?"));
    expect(lite.usageMetadata!.thoughtsTokenCount).toBeUndefined();
  });

  it("streams thought parts before the answer", async () => {
    const chunks = await collect(
      inputFor("gemini-2.5-flash", "Why is the sky blue?", {
        seed: 3,
        thinkingConfig: { includeThoughts: true },
      }),
    );
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const firstAnswer = parts.findIndex((part) => !part.thought);
    const lastThought = parts.map((part) => Boolean(part.thought)).lastIndexOf(true);
    expect(lastThought).toBeGreaterThanOrEqual(0);
    expect(firstAnswer).toBeGreaterThan(lastThought);
  });
});

describe("speech", () => {
  it("answers the TTS model with 24 kHz PCM audio", async () => {
    const response = await generateContent(
      inputFor("gemini-2.5-flash-preview-tts", "Say cheerfully: have a wonderful day!", {
        responseModalities: ["AUDIO"],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } },
      }),
    );
    const parts = response.candidates![0]!.content!.parts;
    expect(parts).toHaveLength(1);
    expect(parts[0]!.inlineData!.mimeType).toBe("audio/L16;codec=pcm;rate=24000");
    const bytes = Buffer.from(parts[0]!.inlineData!.data, "base64");
    expect(bytes.length % 2).toBe(0);
    const seconds = bytes.length / 2 / 24_000;
    expect(seconds).toBeGreaterThan(1);
    let energy = 0;
    for (let offset = 0; offset < bytes.length; offset += 2)
      energy += Math.abs(bytes.readInt16LE(offset));
    expect(energy / (bytes.length / 2)).toBeGreaterThan(100);
    expect(response.usageMetadata!.candidatesTokensDetails).toEqual([
      { modality: "AUDIO", tokenCount: response.usageMetadata!.candidatesTokenCount },
    ]);
  });
});

describe("image output", () => {
  it("ends a text answer with a PNG picture, counted as an IMAGE output of 1290 tokens", async () => {
    const chunks = await collect({
      ...inputFor(
        "gemini-2.0-flash-preview-image-generation",
        "Generate an image of a lighthouse at dusk.",
        { responseModalities: ["TEXT", "IMAGE"], maxOutputTokens: 2000 },
      ),
      stream: true,
    });
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const pictures = parts.filter((part) => part.inlineData);
    expect(pictures).toHaveLength(1);
    expect(parts.at(-1)).toBe(pictures[0]);
    expect(parts.some((part) => part.text?.trim())).toBe(true);
    expect(pictures[0]!.inlineData!.mimeType).toBe("image/png");
    const png = Buffer.from(pictures[0]!.inlineData!.data, "base64");
    expect(png.subarray(1, 4).toString("ascii")).toBe("PNG");
    const usage = chunks.at(-1)!.usageMetadata!;
    const text = usage.candidatesTokenCount! - 1290;
    expect(text).toBeGreaterThan(0);
    expect(usage.candidatesTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: text },
      { modality: "IMAGE", tokenCount: 1290 },
    ]);
  });

  it("answers with the picture alone when IMAGE is asked without TEXT", async () => {
    const response = await generateContent(
      inputFor("gemini-2.5-flash-image", "A lighthouse at dusk.", {
        responseModalities: ["IMAGE"],
      }),
    );
    const parts = response.candidates![0]!.content!.parts;
    expect(parts.map((part) => part.inlineData?.mimeType)).toEqual(["image/png"]);
    expect(response.usageMetadata!.candidatesTokenCount).toBe(1290);
  });
});

describe("stream control", () => {
  it("stops generating at once when the client aborts", async () => {
    const controller = new AbortController();
    const input = inputFor(
      "gemini-2.5-flash",
      "Write a long story.",
      { maxOutputTokens: 60_000, frequencyPenalty: -1.9, thinkingConfig: { thinkingBudget: 0 } },
      {},
      controller.signal,
    );
    const iterator = streamGenerateContent(input)[Symbol.asyncIterator]();
    const before = generationStats();
    await iterator.next();
    await iterator.next();
    expect(generationStats().active).toBe(before.active + 1);
    controller.abort();
    const next = await iterator.next();
    expect(next.done).toBe(true);
    expect(generationStats().active).toBe(before.active);
    const tokens = generationStats().tokens;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(generationStats().tokens).toBe(tokens);
  });

  it("frees the work when the consumer stops reading (return)", async () => {
    const input = plain("Write a long story.", { maxOutputTokens: 60_000, frequencyPenalty: -1.9 });
    const before = generationStats().active;
    for await (const chunk of streamGenerateContent(input)) {
      expect(chunk).toBeDefined();
      break;
    }
    expect(generationStats().active).toBe(before);
  });
});
