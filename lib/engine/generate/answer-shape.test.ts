// The optional fields of answers per model family, as catalog/models.json says the service
// sends them, through the whole generation (unary and streamed).
import { describe, expect, it } from "vitest";
import type {
  FunctionDeclaration,
  GenerateContentResponse,
  GenerationConfig,
  Part,
} from "@/lib/gemini/types";
import { collect, generateContent, inputFor } from "@/lib/testing/generation";
import { FUNCTION_CALL_FINISH_MESSAGE } from "./answer-shape";
import { mergeChunks } from "./index";

const lights: FunctionDeclaration = {
  name: "set_light_level",
  description: "Sets the light level of a room.",
  parameters: {
    type: "OBJECT",
    properties: { room: { type: "STRING" }, level: { type: "INTEGER" } },
    required: ["room", "level"],
  },
};
const callLights = { tools: [{ functionDeclarations: [lights] }] };
const LIGHTS_PROMPT = "Set the light level in the kitchen to 40.";

function parts(response: GenerateContentResponse): Part[] {
  return response.candidates?.flatMap((candidate) => candidate.content?.parts ?? []) ?? [];
}

function unary(model: string, text: string, config: GenerationConfig = {}, extra = {}) {
  return generateContent(inputFor(model, text, { seed: 7, ...config }, extra));
}

function stream(model: string, text: string, config: GenerationConfig = {}, extra = {}) {
  return collect(inputFor(model, text, { seed: 7, ...config }, extra));
}

describe("Gemini 1.5 and 2.0 answers", () => {
  it("leave index 0 out, itemise candidate tokens, and carry avgLogprobs only whole", async () => {
    const response = await unary("gemini-2.0-flash", "Why is the sky blue?");
    const candidate = response.candidates![0]!;
    expect(candidate).not.toHaveProperty("index");
    expect(candidate.avgLogprobs).toBeLessThan(0);
    expect(response.usageMetadata!.candidatesTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: response.usageMetadata!.candidatesTokenCount },
    ]);
    expect(response.usageMetadata).not.toHaveProperty("serviceTier");
    const chunks = await stream("gemini-2.0-flash", "Why is the sky blue?");
    expect(chunks.some((chunk) => chunk.candidates?.[0]?.avgLogprobs !== undefined)).toBe(false);
    expect(chunks.at(-1)!.candidates![0]!.finishReason).toBe("STOP");
  });

  it("write the index of a later candidate", async () => {
    const response = await unary("gemini-2.0-flash", "Why is the sky blue?", {
      candidateCount: 2,
    });
    expect(response.candidates!.map((candidate) => candidate.index)).toEqual([undefined, 1]);
  });

  it("carry no finishMessage, call id or signature beside a function call", async () => {
    const response = await unary("gemini-2.0-flash", LIGHTS_PROMPT, {}, callLights);
    const call = parts(response).find((part) => part.functionCall)!;
    expect(call.functionCall!.name).toBe("set_light_level");
    expect(call.functionCall).not.toHaveProperty("id");
    expect(call).not.toHaveProperty("thoughtSignature");
    expect(response.candidates![0]).not.toHaveProperty("finishMessage");
  });
});

describe("Gemini 2.5 answers", () => {
  it("carry index 0 and serviceTier, no avgLogprobs or candidate token details", async () => {
    const response = await unary("gemini-2.5-flash", "Why is the sky blue?");
    expect(response.candidates![0]!.index).toBe(0);
    expect(response.candidates![0]).not.toHaveProperty("avgLogprobs");
    expect(response.usageMetadata!.serviceTier).toBe("standard");
    expect(response.usageMetadata).not.toHaveProperty("candidatesTokensDetails");
  });

  it("report the service tier asked for", async () => {
    const response = await unary(
      "gemini-2.5-flash",
      "Why is the sky blue?",
      {},
      {
        serviceTier: "FLEX",
      },
    );
    expect(response.usageMetadata!.serviceTier).toBe("flex");
  });

  it("sign the first answer part only when the request declares functions", async () => {
    const plain = await unary("gemini-2.5-flash", "Why is the sky blue?");
    expect(parts(plain).some((part) => part.thoughtSignature)).toBe(false);
    const response = await unary("gemini-2.5-flash", LIGHTS_PROMPT, {}, callLights);
    const first = parts(response)[0]!;
    expect(first.functionCall?.name).toBe("set_light_level");
    expect(first.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(first.functionCall).not.toHaveProperty("id");
    expect(response.candidates![0]!.finishMessage).toBe(FUNCTION_CALL_FINISH_MESSAGE);
  });

  it("stream the finish reason with the last of the answer", async () => {
    const chunks = await stream("gemini-2.5-flash", "Why is the sky blue?");
    const last = chunks.at(-1)!.candidates![0]!;
    expect(last.finishReason).toBe("STOP");
    expect(last.content?.parts.some((part) => part.text === "")).not.toBe(true);
  });
});

describe("Gemini 3 answers", () => {
  const model = "gemini-3-flash-preview";

  it("sign the first answer part of every whole answer, thinking or not", async () => {
    for (const thinkingBudget of [0, 128]) {
      const response = await unary(model, "Why is the sky blue?", {
        thinkingConfig: { thinkingBudget },
      });
      const answer = parts(response).filter((part) => !part.thought);
      expect(answer).toHaveLength(1);
      expect(answer[0]!.thoughtSignature).toBeDefined();
    }
  });

  it("stream the finish reason on an event of its own: an empty text part with the signature", async () => {
    const chunks = await stream(model, "Why is the sky blue?");
    const finishing = chunks.filter((chunk) => chunk.candidates?.[0]?.finishReason);
    expect(finishing).toHaveLength(1);
    expect(finishing[0]).toBe(chunks.at(-1));
    expect(finishing[0]!.candidates![0]!.content!.parts).toEqual([
      { text: "", thoughtSignature: expect.any(String) },
    ]);
    const earlier = chunks.slice(0, -1).flatMap(parts);
    expect(earlier.some((part) => part.thoughtSignature)).toBe(false);
    // Merged, the signature sits on the answer text, as in a whole answer.
    const merged = parts(mergeChunks(chunks));
    expect(merged).toHaveLength(1);
    expect(merged[0]!.thoughtSignature).toBeDefined();
  });

  it("sign a streamed function call itself, id and all, and finish on an empty part", async () => {
    const chunks = await stream(model, LIGHTS_PROMPT, {}, callLights);
    const call = chunks.flatMap(parts).find((part) => part.functionCall)!;
    expect(call.functionCall!.id).toMatch(/^[a-z0-9]{8}$/);
    expect(call.thoughtSignature).toBeDefined();
    const last = chunks.at(-1)!.candidates![0]!;
    expect(last.content!.parts).toEqual([{ text: "" }]);
    expect(last).not.toHaveProperty("finishMessage");
    const whole = await unary(model, LIGHTS_PROMPT, {}, callLights);
    expect(parts(whole)).toHaveLength(1);
    expect(whole.candidates![0]!.finishMessage).toBe(FUNCTION_CALL_FINISH_MESSAGE);
  });

  it("stream thought summaries only after long thinking, or when the limit cuts it", async () => {
    const short = await stream(model, "Why is the sky blue?", {
      thinkingConfig: { includeThoughts: true, thinkingBudget: 64 },
    });
    expect(short.flatMap(parts).some((part) => part.thought)).toBe(false);
    const whole = await unary(model, "Why is the sky blue?", {
      thinkingConfig: { includeThoughts: true, thinkingBudget: 64 },
    });
    expect(parts(whole)[0]!.thought).toBe(true);
    const cut = await stream(model, "Why is the sky blue?", {
      maxOutputTokens: 16,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
    });
    expect(cut.flatMap(parts).some((part) => part.thought)).toBe(true);
    expect(cut.at(-1)!.candidates![0]!.finishReason).toBe("MAX_TOKENS");
  });
});
