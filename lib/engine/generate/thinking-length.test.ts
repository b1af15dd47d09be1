// The thinking lengths of the catalog against the recordings they come from, and how a request's
// budget bounds them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findModel, requireModel } from "@/lib/engine/catalog";
import data from "@/lib/engine/catalog/models.json";
import type { GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";
import { readGenerateContentRequest } from "@/lib/gemini/validate";
import { thinkingAsk, thinkingTokens, type ThinkingAsk } from "./thinking-length";

interface Exchange {
  id: string;
  operation: string;
  path: string;
  status: number;
  requestBody: unknown;
  responseBody: string;
}

const exchanges: Exchange[] = readFileSync(
  path.resolve("e2e/fixtures/recorded-exchanges/exchanges.jsonl"),
  "utf8",
)
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));

function lastEvent(exchange: Exchange): GenerateContentResponse {
  if (exchange.operation !== "streamGenerateContent") return JSON.parse(exchange.responseBody);
  const events = exchange.responseBody
    .split("\r\n\r\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => JSON.parse(event.slice(6)) as GenerateContentResponse);
  return events.at(-1)!;
}

/**
 * Every recorded thinking length the model chose, by family and kind of ask: answers of models
 * that think, to requests that let them, not cut by maxOutputTokens.
 */
function recordedLengths(): Map<string, Map<ThinkingAsk, number[]>> {
  const lengths = new Map<string, Map<ThinkingAsk, number[]>>();
  for (const exchange of exchanges) {
    if (exchange.status !== 200) continue;
    const model = /models\/([^/:]+):(?:stream)?[gG]enerateContent$/.exec(exchange.path)?.[1];
    const entry = model && findModel(decodeURIComponent(model));
    if (!entry || !entry.thinkingLength) continue;
    const request: GenerateContentRequest = readGenerateContentRequest(exchange.requestBody);
    if (thinkingTokens(request, entry.traits.thinking, { plain: 1 }) === 0) continue;
    const answer = lastEvent(exchange);
    if (answer.candidates?.some((candidate) => candidate.finishReason === "MAX_TOKENS")) continue;
    const byAsk = lengths.get(entry.family) ?? new Map<ThinkingAsk, number[]>();
    lengths.set(entry.family, byAsk);
    const kind = thinkingAsk(request);
    byAsk.set(kind, [...(byAsk.get(kind) ?? []), answer.usageMetadata?.thoughtsTokenCount ?? 0]);
  }
  return lengths;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length / 2;
  return Number.isInteger(middle)
    ? Math.round((sorted[middle - 1]! + sorted[middle]!) / 2)
    : sorted[Math.floor(middle)]!;
}

const families = data.families as Record<string, { thinkingLength?: Record<string, unknown> }>;

describe("thinking lengths", () => {
  it("are, per family and kind of ask, the median of the family's recorded answers", () => {
    const recorded = recordedLengths();
    const expected = Object.fromEntries(
      [...recorded].map(([family, byAsk]) => [
        family,
        Object.fromEntries([...byAsk].map(([kind, values]) => [kind, median(values)])),
      ]),
    );
    const stated = Object.fromEntries(
      Object.entries(families)
        .filter(([, family]) => family.thinkingLength)
        .map(([name, family]) => {
          const { about: _about, ...lengths } = family.thinkingLength!;
          return [name, lengths];
        }),
    );
    expect(stated).toEqual(expected);
  });

  it("tell the kinds of ask apart", () => {
    const ask = (extra: Partial<GenerateContentRequest>) =>
      thinkingAsk({ contents: [{ role: "user", parts: [{ text: "Hi" }] }], ...extra });
    expect(ask({})).toBe("plain");
    expect(ask({ tools: [{ googleSearch: {} }] })).toBe("tools");
    expect(ask({ tools: [{ functionDeclarations: [] }] })).toBe("plain");
    expect(ask({ generationConfig: { responseMimeType: "application/json" } })).toBe(
      "structuredOutput",
    );
    expect(ask({ generationConfig: { responseMimeType: "text/x.enum" } })).toBe("structuredOutput");
    expect(
      thinkingAsk({
        contents: [
          { role: "user", parts: [{ text: "Weather in Paris?" }] },
          { role: "model", parts: [{ functionCall: { name: "weather", args: {} } }] },
          { role: "user", parts: [{ functionResponse: { name: "weather", response: {} } }] },
        ],
        tools: [{ functionDeclarations: [{ name: "weather" }] }],
      }),
    ).toBe("functionResponse");
  });

  it("run to the family's length within the budget asked for", () => {
    const { traits, thinkingLength } = requireModel("gemini-3-pro-preview", "generateContent");
    const request = (thinkingBudget?: number): GenerateContentRequest => ({
      contents: [{ role: "user", parts: [{ text: "Hi" }] }],
      ...(thinkingBudget !== undefined
        ? { generationConfig: { thinkingConfig: { thinkingBudget } } }
        : {}),
    });
    const plain = thinkingLength!.plain;
    expect(thinkingTokens(request(), traits.thinking, thinkingLength)).toBe(plain);
    expect(thinkingTokens(request(-1), traits.thinking, thinkingLength)).toBe(plain);
    expect(thinkingTokens(request(4096), traits.thinking, thinkingLength)).toBe(plain);
    // The smallest budget the model takes bounds it (3 Pro cannot turn thinking off).
    expect(thinkingTokens(request(1), traits.thinking, thinkingLength)).toBe(
      Math.min(plain, traits.thinking!.minBudget),
    );
    const flash = requireModel("gemini-2.5-flash", "generateContent");
    expect(thinkingTokens(request(0), flash.traits.thinking, flash.thinkingLength)).toBe(0);
    expect(thinkingTokens(request(8), flash.traits.thinking, flash.thinkingLength)).toBe(8);
    const lite = requireModel("gemini-2.5-flash-lite", "generateContent");
    expect(thinkingTokens(request(), lite.traits.thinking, lite.thinkingLength)).toBe(0);
    const speech = requireModel("gemini-2.5-flash-preview-tts", "generateContent");
    expect(speech.thinkingLength).toBeUndefined();
    expect(thinkingTokens(request(), speech.traits.thinking, speech.thinkingLength)).toBe(0);
  });
});
