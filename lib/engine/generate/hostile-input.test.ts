// One request's text must not stop the engine for everyone. Each case runs a
// hostile generateContent while a light countTokens is sent every 50 ms, and checks how long
// the light requests waited. The bounds are generous ("did not hang": the code before this
// held the event loop for 19 s, 32 s and 5.7 s on these inputs); bench/hostile-input.mjs
// carries the real figures.
import { describe, expect, it, vi } from "vitest";
import { requireModel } from "@/lib/engine/catalog";
import { countRequestTokens } from "@/lib/engine/tokens";
import type { GenerateContentRequest } from "@/lib/gemini/types";
import { checkGenerateContentRequest } from "@/lib/gemini/validate";
import { piecedText } from "@/lib/runtime/pieced-text";
import { bodyOfOutcome } from "@/lib/server/http/body-reader-client";
import { readBodyText } from "@/lib/server/http/body-readers";
import { bodyReaderValue, longestString } from "@/lib/testing/body-reader-replies";
import { answerText, collect, generateContent, inputFor, plain } from "@/lib/testing/generation";

const LIGHT_BOUND_MS = 3_000;
const flash = requireModel("gemini-2.5-flash", "countTokens").traits;

/** Runs `hostile` while light countTokens requests go every 50 ms; their latencies and the outcome. */
async function whileLightRequestsRun<T>(hostile: () => Promise<T>) {
  // Warm the tokenizer and the model first, so only the hostile request is measured.
  await countRequestTokens(flash, { contents: [{ role: "user", parts: [{ text: "warm" }] }] });
  await generateContent(plain("Hello", { maxOutputTokens: 4 }));
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const begun = performance.now();
    const done = countRequestTokens(flash, {
      contents: [{ role: "user", parts: [{ text: "Still here?" }] }],
    }).then(() => {
      latencies.push(performance.now() - begun);
      pending.delete(done);
    });
    pending.add(done);
  }, 50);
  let outcome: { value?: T; error?: unknown };
  try {
    outcome = { value: await hostile() };
  } catch (error) {
    outcome = { error };
  } finally {
    clearInterval(timer);
  }
  await Promise.all(pending);
  return { latencies, ...outcome };
}

describe("hostile request text", () => {
  it("an 800 KB prompt of 'Ab x ' does not hold up a light countTokens", async () => {
    const run = await whileLightRequestsRun(() =>
      generateContent(plain("Ab x ".repeat(160_000), { maxOutputTokens: 16 })),
    );
    expect(run.error).toBeUndefined();
    expect(run.latencies.length).toBeGreaterThan(0);
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);

  it("'repeat after me: a' + 300,000 spaces + 'b' does not hold up a light countTokens", async () => {
    const run = await whileLightRequestsRun(() =>
      generateContent(plain(`repeat after me: a${" ".repeat(300_000)}b`, { maxOutputTokens: 16 })),
    );
    expect(run.error).toBeUndefined();
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);

  it("a request the input token limit refuses costs only its count", async () => {
    let resolved = 0;
    const input = plain("Ab x ".repeat(800_000), { maxOutputTokens: 16 });
    input.request.contents[0]!.parts.push({
      fileData: { fileUri: "files/notes", mimeType: "text/plain" },
    });
    input.resolveFile = async () => {
      resolved += 1;
      const text = "The keeper's notes.";
      return {
        mimeType: "text/plain",
        probed: { kind: "text", mimeType: "text/plain", sizeBytes: text.length, text },
      };
    };
    const run = await whileLightRequestsRun(() => generateContent(input));
    expect(String((run.error as Error | undefined)?.message)).toMatch(
      /exceeds the maximum number of tokens allowed \(1048576\)/,
    );
    // Counted once; not read again for context or citations, which only follow the limit check.
    expect(resolved).toBe(1);
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);

  it("a long prompt read in the body reader worker and refused by the input limit is never made a string on this thread", async () => {
    const prompt = "Tell me about the harbour. ".repeat(45_000);
    const body = JSON.stringify({
      contents: [{ role: "user", parts: [{ text: prompt }] }],
      generationConfig: { maxOutputTokens: 16, thinkingConfig: { thinkingBudget: 0 } },
    });
    // The worker's answer, as the request's thread receives it: no string of the prompt in it.
    const reply = structuredClone(bodyReaderValue(body));
    expect(longestString(reply)).toBeLessThan(1_000);
    const request = (await bodyOfOutcome(reply)) as GenerateContentRequest;
    // A lower limit than the model's keeps the count short; the path is the same.
    const traits = { ...flash, inputTokenLimit: 100_000 };
    const expected = await countRequestTokens(traits, readBodyText(body, "generateContent"));
    expect(expected.totalTokens).toBeGreaterThan(100_000);

    const decoded = [
      vi.spyOn(Buffer.prototype, "toString"),
      vi.spyOn(TextDecoder.prototype, "decode"),
    ];
    let run: Awaited<ReturnType<typeof whileLightRequestsRun>>;
    let longestMade = 0;
    try {
      // The model's rules, as the route checks them, then the generation.
      run = await whileLightRequestsRun(async () =>
        generateContent({
          ...plain(""),
          request: checkGenerateContentRequest(request, traits),
          traits,
        }),
      );
    } finally {
      for (const spy of decoded) {
        for (const { value } of spy.mock.results)
          longestMade = Math.max(longestMade, String(value).length);
        spy.mockRestore();
      }
    }
    expect(String((run.error as Error | undefined)?.message)).toBe(
      `The input token count (${expected.totalTokens}) exceeds the maximum number of tokens allowed (100000).`,
    );
    expect(longestMade).toBeLessThan(prompt.length / 10);
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
    // Read, it is the prompt as sent.
    expect(request.contents[0]!.parts[0]!.text).toBe(prompt);
  }, 120_000);

  it("rates a 4 MB prompt for safety in slices without holding up others", async () => {
    const run = await whileLightRequestsRun(() =>
      generateContent(
        plain(
          "you idiot ".repeat(400_000),
          { maxOutputTokens: 16 },
          {
            safetySettings: [
              { category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_MEDIUM_AND_ABOVE" },
            ],
          },
        ),
      ),
    );
    expect(run.value?.promptFeedback?.blockReason).toBe("SAFETY");
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);

  it("a function call of 30,000 arguments and a long function response do not hold up others", async () => {
    const args = Object.fromEntries(
      Array.from({ length: 30_000 }, (_, index) => [
        `field_${index}`,
        index % 2 ? `value ${index}` : { city: "Paris", days: [index] },
      ]),
    );
    const run = await whileLightRequestsRun(() =>
      generateContent(
        plain(
          "",
          { maxOutputTokens: 16 },
          {
            contents: [
              { role: "user", parts: [{ text: "Look it up." }] },
              { role: "model", parts: [{ functionCall: { name: "lookup", args } }] },
              {
                role: "user",
                parts: [
                  {
                    functionResponse: {
                      name: "lookup",
                      response: { result: "found it ".repeat(50_000) },
                    },
                  },
                ],
              },
            ],
            tools: [{ functionDeclarations: [{ name: "lookup", description: "Looks up." }] }],
          },
        ),
      ),
    );
    expect(run.error).toBeUndefined();
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);

  it("a declaration of 20,000 properties and a history of 20,000 turns do not hold up others", async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, index) => [
        `option_${index}`,
        { type: "STRING", description: `Option number ${index}.` },
      ]),
    );
    const run = await whileLightRequestsRun(() =>
      generateContent(
        plain(
          "",
          { maxOutputTokens: 16 },
          {
            contents: [
              ...Array.from({ length: 20_000 }, (_, index) => ({
                role: index % 2 ? "model" : "user",
                parts: [{ text: `turn ${index % 997} of the talk ${index % 13}` }],
              })),
              { role: "user", parts: [{ text: "Which tool fits?" }] },
            ],
            tools: [
              {
                functionDeclarations: [
                  {
                    name: "describe",
                    description: "Describes it.",
                    parameters: { type: "OBJECT", properties } as never,
                  },
                ],
              },
            ],
          },
        ),
      ),
    );
    expect(run.error).toBeUndefined();
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);
});

describe("wide schemas", () => {
  it("a responseJsonSchema of 100,000 anyOf branches does not hold up others", async () => {
    const wide = {
      anyOf: Array.from({ length: 100_000 }, (_, index) => ({
        type: "object",
        properties: { [`k${index}`]: { type: "string" } },
        // Required, so the answer names one branch's key whatever the seed picks.
        required: [`k${index}`],
      })),
    };
    const run = await whileLightRequestsRun(() =>
      generateContent(
        plain("Give me JSON.", {
          maxOutputTokens: 64,
          responseMimeType: "application/json",
          responseJsonSchema: wide,
        }),
      ),
    );
    expect(run.error).toBeUndefined();
    expect(Object.keys(JSON.parse(answerText(run.value!)) as object)).toHaveLength(1);
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);
});

describe("generated media held to the output limit", () => {
  /** About `count` words of plain English (a token a word). */
  const words = (count: number) =>
    "The quick brown fox jumps over the lazy dog. ".repeat(Math.ceil(count / 9));

  it("speaks a few thousand words only up to the model's output limit, a chunk per turn", async () => {
    const tts = "gemini-2.5-flash-preview-tts";
    const limit = requireModel(tts, "generateContent").traits.outputTokenLimit;
    const run = await whileLightRequestsRun(() =>
      generateContent(inputFor(tts, words(3_000), { responseModalities: ["AUDIO"] })),
    );
    expect(run.error).toBeUndefined();
    const candidate = run.value!.candidates![0]!;
    expect(candidate.finishReason).toBe("MAX_TOKENS");
    // Held as the audio's bytes, off the heap, until it is written: no base64 string per chunk.
    const held = piecedText(candidate.content!.parts[0]!.inlineData!, "data")!;
    expect(held.length).toBeGreaterThan(1_000);
    expect(held.every((piece) => piece instanceof Uint8Array)).toBe(true);
    const audio = Buffer.from(candidate.content!.parts[0]!.inlineData!.data, "base64");
    // 32 tokens a second of 24 kHz 16-bit audio: 1,500 bytes a token.
    expect(audio.length).toBe(limit * 1_500);
    expect(run.value!.usageMetadata!.candidatesTokenCount).toBe(limit);
    expect(Math.max(...run.latencies)).toBeLessThan(LIGHT_BOUND_MS);
  }, 120_000);

  it("stops speech at maxOutputTokens, streamed in half-second chunks", async () => {
    const chunks = await collect({
      ...inputFor("gemini-2.5-flash-preview-tts", words(200), {
        responseModalities: ["AUDIO"],
        maxOutputTokens: 100,
      }),
      stream: true,
    });
    const pieces = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const bytes = pieces.map((part) => Buffer.from(part.inlineData!.data, "base64").length);
    expect(bytes.reduce((sum, size) => sum + size, 0)).toBe(100 * 1_500);
    expect(Math.max(...bytes)).toBe(24_000);
    expect(chunks.at(-1)!.candidates![0]!.finishReason).toBe("MAX_TOKENS");
  });

  it("draws no picture the output limit cannot hold", async () => {
    const response = await generateContent(
      inputFor("gemini-2.5-flash-image", "A lighthouse at dusk.", {
        responseModalities: ["IMAGE"],
        maxOutputTokens: 1_000,
      }),
    );
    const candidate = response.candidates![0]!;
    expect(candidate.finishReason).toBe("MAX_TOKENS");
    expect(candidate.content?.parts.some((part) => part.inlineData) ?? false).toBe(false);
    expect(response.usageMetadata!.candidatesTokenCount ?? 0).toBeLessThanOrEqual(1_000);
  });
});
