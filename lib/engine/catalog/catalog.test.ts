// The catalog data against the recordings it is derived from: every generateContent and
// embedContent model of the newest recorded models.list is served with the service's resource, every model a
// recorded request used successfully stays served, and aliases answer as their targets.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { Model } from "@/lib/gemini/types";
import { CATALOG, LISTED_MODELS, findModel, requireModel } from "./index";

interface Exchange {
  id: string;
  operation: string;
  path: string;
  status: number;
  responseBody: string;
}

const exchanges: Exchange[] = readFileSync(
  path.resolve("e2e/fixtures/recorded-exchanges/exchanges.jsonl"),
  "utf8",
)
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));

/** The recorded list naming the highest Gemini version: the newest catalog. */
function newestRecordedList(): Model[] {
  const lists = exchanges
    .filter((exchange) => exchange.operation === "models.list" && exchange.status === 200)
    .map((exchange) => JSON.parse(exchange.responseBody).models as Model[]);
  const newest = (models: Model[]) =>
    Math.max(...models.map((model) => Number(/gemini-(\d+(?:\.\d+)?)/.exec(model.name)?.[1] ?? 0)));
  return lists.sort((left, right) => newest(left) - newest(right)).at(-1)!;
}

describe("the catalog", () => {
  it("lists every generateContent and embedContent model of the newest recorded models.list, with its resource, in its order", () => {
    const expected = newestRecordedList().filter(
      (model) =>
        model.supportedGenerationMethods?.includes("generateContent") ||
        model.supportedGenerationMethods?.includes("embedContent"),
    );
    expect(LISTED_MODELS).toEqual(expected);
    expect(LISTED_MODELS.map((model) => model.name)).toContain("models/gemini-3.7-flash");
    expect(LISTED_MODELS.map((model) => model.name)).toContain("models/gemini-embedding-2");
  });

  it("says of each embedding model what its vectors are, as recorded", () => {
    const text = findModel("gemini-embedding-001")!.embedding!;
    expect(text).toMatchObject({ dimensions: 3072, renormalizesTruncated: false, usage: false });
    expect(text.media).toEqual([]);
    const multimodal = findModel("gemini-embedding-2")!.embedding!;
    expect(multimodal).toMatchObject({ renormalizesTruncated: true, maxImagePartsPerInput: 6 });
    expect(findModel("gemini-embedding-exp-03-07")!.listed).toBe(false);
    expect(findModel("gemini-2.5-flash")!.embedding).toBeUndefined();
    // An embedding model generates nothing, and a generation model embeds nothing.
    expect(() => requireModel("gemini-embedding-2", "generateContent")).toThrow(
      "not supported for generateContent. Call ModelService.ListModels",
    );
    expect(() => requireModel("gemini-2.5-flash", "embedContent")).toThrow(
      "models/gemini-2.5-flash is not found for API version v1beta, or is not supported for embedContent. Call ModelService.ListModels to see the list of available models and their supported methods.",
    );
  });

  it("keeps serving, unlisted, every model a recorded request used successfully", () => {
    const used = new Set(
      exchanges
        .filter(
          (exchange) =>
            exchange.status === 200 && /:(?:stream)?[gG]enerateContent$/.test(exchange.path),
        )
        .map((exchange) => decodeURIComponent(/models\/([^/:]+):/.exec(exchange.path)![1]!)),
    );
    for (const id of used) expect(findModel(id), id).toBeDefined();
    const retired = findModel("gemini-1.5-flash")!;
    expect(retired.listed).toBe(false);
    expect(retired.model.displayName).toBe("Gemini 1.5 Flash");
  });

  it("refuses a retired model with the service's 404, its traits still known", () => {
    for (const id of [
      "gemini-1.5-flash",
      "gemini-1.5-pro",
      "gemini-2.5-flash-preview-04-17",
      "gemini-2.5-pro-exp-03-25",
    ]) {
      expect(findModel(id)?.retired, id).toMatch(/404|Refused/);
      expect(() => requireModel(id, "generateContent"), id).toThrow(
        `models/${id} is not found for API version v1beta, or is not supported for generateContent.`,
      );
    }
    // Routed to a successor instead, as its newest recorded answer shows.
    expect(findModel("gemini-2.0-flash-thinking-exp-01-21")!.modelVersion).toBe(
      "models/gemini-2.5-flash-preview-05-20",
    );
    expect(LISTED_MODELS.some((model) => /1\.5/.test(model.name))).toBe(false);
  });

  it("answers an alias as its target: target traits and modelVersion, the alias's own name and resource", () => {
    const alias = findModel("gemini-flash-latest")!;
    const target = findModel(alias.modelVersion)!;
    // The newest recorded answer (llm-gemini, August 2026) names 3.6 Flash; May 2026's, 3.5.
    expect(alias.modelVersion).toBe("gemini-3.6-flash");
    expect(alias.traits.name).toBe("models/gemini-flash-latest");
    expect(alias.model.displayName).toBe("Gemini Flash Latest");
    expect({ ...alias.traits, name: "" }).toEqual({ ...target.traits, name: "" });
    expect(alias.answer).toEqual(target.answer);
  });

  it("holds complete traits for every model, from its family", () => {
    for (const entry of CATALOG) {
      expect(entry.traits.tokenizer, entry.traits.name).toMatch(/^gemma3?$/);
      expect(entry.traits.responseModalities.length, entry.traits.name).toBeGreaterThan(0);
    }
    expect(findModel("gemini-2.0-flash")!.traits.roleTokenPerContent).toBe(false);
    const flash25 = findModel("gemini-2.5-flash")!.traits;
    expect(findModel("gemini-2.0-flash-lite")!.traits.cacheTokens).toEqual({
      tokenizer: "gemma3",
      roleTokenPerContent: true,
      promptTokens: flash25.promptTokens,
    });
    expect(flash25.cacheTokens).toBeUndefined();
    // 2.0 states its media only: function parts as 1.5, its countTokens as 2.5's.
    const flash20 = findModel("gemini-2.0-flash")!.traits;
    const flash15 = findModel("gemini-1.5-flash")!.traits;
    expect(flash20.promptTokens).toMatchObject({
      functionText: flash15.promptTokens!.functionText,
      responseSchema: true,
      media: {
        videoFrames: "ceil",
        videoAudio: "none",
        videoFrameExtra: 0,
        audioTokensPerSecond: 25,
        audioWholeSeconds: true,
      },
    });
    expect(flash20.promptTokens!.media.image).toHaveProperty("tiles");
    expect(flash15.promptTokens!.media.audioWholeSeconds).toBeUndefined();
    // countTokens counts 2.0's text with 2.0's own vocabulary, the rest as 2.5 counts.
    expect(flash20.countTokensCounting).toEqual({
      tokenizer: "gemma",
      countTokensRoleTokens: true,
      promptTokens: flash25.promptTokens,
    });
    expect(findModel("gemini-2.0-flash-preview-image-generation")!.traits.promptTokens).toEqual(
      flash20.promptTokens,
    );
    expect(findModel("gemini-3.1-flash-tts-preview")!.traits.thinking).toBeUndefined();
    expect(findModel("gemini-3.5-flash")!.traits.logprobs).toBe(false);
  });

  it("answers the service's 404 for an unknown model or an unsupported method", () => {
    expect(() => requireModel("gemini-9-ultra", "generateContent")).toThrow(ApiError);
    expect(() => requireModel("gemma-3-1b-it", "createCachedContent")).toThrow(
      /not supported for createCachedContent\. Call ModelService\.ListModels/,
    );
  });
});

/** The field paths of a recorded answer (union over a stream's events), as the replay reads them. */
function answerFields(exchange: Exchange): Set<string> {
  const bodies =
    exchange.operation === "streamGenerateContent"
      ? exchange.responseBody
          .split("\r\n\r\n")
          .filter((event) => event.startsWith("data: "))
          .map((event) => event.slice(6))
      : [exchange.responseBody];
  const fields = new Set<string>();
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) for (const item of value) visit(item, `${path}[]`);
    else if (value && typeof value === "object")
      for (const [key, child] of Object.entries(value)) {
        fields.add(`${path}.${key}`);
        if (key !== "args") visit(child, `${path}.${key}`);
      }
  };
  for (const body of bodies) visit(JSON.parse(body), "");
  return fields;
}

describe("the answer traits", () => {
  const answers = exchanges
    .filter(
      (exchange) =>
        exchange.status === 200 &&
        (exchange.operation === "generateContent" ||
          exchange.operation === "streamGenerateContent"),
    )
    .map((exchange) => ({
      exchange,
      entry: findModel(decodeURIComponent(/models\/([^/:]+):/.exec(exchange.path)![1]!))!,
      fields: answerFields(exchange),
    }));

  it("agree with every recorded answer of their models on the fields no date changed", () => {
    for (const { exchange, entry, fields } of answers) {
      const { answer } = entry;
      const has = (field: string) => fields.has(field);
      if (has(".candidates"))
        expect(has(".candidates[].index"), exchange.id).toBe(answer.candidateIndex);
      if (has(".usageMetadata.candidatesTokenCount"))
        expect(has(".usageMetadata.candidatesTokensDetails"), exchange.id).toBe(
          answer.candidatesTokensDetails,
        );
      if (has(".candidates[].finishReason"))
        expect(has(".candidates[].avgLogprobs"), exchange.id).toBe(
          answer.avgLogprobs && exchange.operation === "generateContent",
        );
      if (has(".candidates[].content.parts[].functionCall"))
        expect(has(".candidates[].content.parts[].functionCall.id"), exchange.id).toBe(
          answer.functionCallIds,
        );
      if (has(".candidates[].finishMessage")) expect(answer.finishMessage, exchange.id).toBe(true);
      if (has(".usageMetadata.serviceTier")) expect(answer.serviceTier, exchange.id).toBe(true);
      if (has(".candidates[].content.parts[].thoughtSignature"))
        expect(answer.thoughtSignatures, exchange.id).not.toBe("none");
    }
  });

  it("send serviceTier on every 2.5 and 3 model the service still listed once it sent it", () => {
    expect(findModel("gemini-2.5-flash")!.answer.serviceTier).toBe(true);
    expect(findModel("gemini-3-pro-preview")!.answer.serviceTier).toBe(true);
    expect(findModel("gemini-2.5-pro-preview-06-05")!.answer.serviceTier).toBe(false);
    expect(findModel("gemini-2.0-flash")!.answer.serviceTier).toBe(false);
  });
});
