// The prefixes implicit caching compares: what of a part is prompt text, and how a cached count
// is split per modality.
import { describe, expect, it } from "vitest";
import type { FixedTokens } from "@/lib/engine/tokens";
import type { Content, MediaModality } from "@/lib/gemini/types";
import {
  promptPrefixes,
  proportionalDetails,
  type PromptReading,
  type PrefixRequest,
} from "./implicit-prefix";

const TRAITS = { blockTokens: 256, minTokens: 256, ttlSeconds: 300 };
const FLASH_25: PromptReading = { roleTokenPerContent: true, thoughtSignatures: "none" };
const FLASH_3: PromptReading = { roleTokenPerContent: true, thoughtSignatures: "thinking" };

/** A user text, a call and its response, then a long user text after them. */
function conversation(call: { id: string; signature: string; city: string }): PrefixRequest {
  const contents: Content[] = [
    { role: "user", parts: [{ text: "What is the weather in Paris?" }] },
    {
      role: "model",
      parts: [
        {
          functionCall: { id: call.id, name: "get_weather", args: { city: call.city } },
          thoughtSignature: call.signature,
        },
      ],
    },
    {
      role: "user",
      parts: [
        {
          functionResponse: { id: call.id, name: "get_weather", response: { result: "sunny" } },
        },
      ],
    },
    { role: "user", parts: [{ text: "A long report follows. ".repeat(200) }] },
  ];
  return { contents };
}

/** Each part's tokens as the prompt's count gives them (one modality each). */
function counted(request: PrefixRequest, tokens: number[]): FixedTokens[] {
  return request.contents.map((_, content) => ({
    place: { content, part: 0 },
    modality: "TEXT" as const,
    tokens: tokens[content]!,
  }));
}

const TOKENS = [8, 40, 30, 1000];

async function sharedBlocks(
  first: PrefixRequest,
  second: PrefixRequest,
  reading: PromptReading,
): Promise<number> {
  const one = await promptPrefixes(first, counted(first, TOKENS), reading, TRAITS);
  const two = await promptPrefixes(second, counted(second, TOKENS), reading, TRAITS);
  let shared = 0;
  for (const [index, block] of two.blocks.entries())
    if (one.blocks[index]?.hash === block.hash) shared = index + 1;
  return shared;
}

describe("implicit-cache prefixes", () => {
  const base = { id: "call_1", signature: "c2lnbmF0dXJlLW9uZQ==", city: "Paris" };

  it("ignores call and response ids, which no notation writes into the prompt", async () => {
    const other = { ...base, id: "call_2" };
    // 1,082 tokens: four whole blocks, all shared.
    expect(await sharedBlocks(conversation(base), conversation(other), FLASH_25)).toBe(4);
    expect(await sharedBlocks(conversation(base), conversation(other), FLASH_3)).toBe(4);
  });

  it("ignores a thought signature where the family counts it as nothing, not where it counts its thinking", async () => {
    const other = { ...base, signature: "c2lnbmF0dXJlLXR3bw==" };
    expect(await sharedBlocks(conversation(base), conversation(other), FLASH_25)).toBe(4);
    expect(await sharedBlocks(conversation(base), conversation(other), FLASH_3)).toBe(0);
  });

  it("still tells apart calls that differ in what the model reads", async () => {
    const other = { ...base, id: "call_2", city: "Lyon" };
    expect(await sharedBlocks(conversation(base), conversation(other), FLASH_25)).toBe(0);
  });

  it("splits a cached count over the prompt's modalities in proportion, as the service reports it", () => {
    const details = (text: number, media: [MediaModality, number], cached: number) =>
      proportionalDetails(
        new Map<MediaModality, number>([
          ["TEXT", text],
          [media[0], media[1]],
        ]),
        text + media[1],
        cached,
      );
    // Recorded 2.5 Flash answers (prompt TEXT and IMAGE or DOCUMENT; cached; the service's split).
    expect(details(87, ["IMAGE", 258], 191)).toEqual([
      { modality: "TEXT", tokenCount: 48 },
      { modality: "IMAGE", tokenCount: 143 },
    ]);
    expect(details(81, ["IMAGE", 258], 188)).toEqual([
      { modality: "TEXT", tokenCount: 45 },
      { modality: "IMAGE", tokenCount: 143 },
    ]);
    expect(details(115, ["IMAGE", 258], 204)).toEqual([
      { modality: "TEXT", tokenCount: 63 },
      { modality: "IMAGE", tokenCount: 141 },
    ]);
    expect(details(70, ["DOCUMENT", 258], 220)).toEqual([
      { modality: "TEXT", tokenCount: 47 },
      { modality: "DOCUMENT", tokenCount: 173 },
    ]);
    expect(details(166, ["IMAGE", 258], 287)).toEqual([
      { modality: "TEXT", tokenCount: 112 },
      { modality: "IMAGE", tokenCount: 175 },
    ]);
  });
});
