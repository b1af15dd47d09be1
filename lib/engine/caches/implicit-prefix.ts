/**
 * A prompt as the prefixes implicit caching compares (lib/engine/README.md, "Implicit
 * caching"): its units in the order the model reads them (the system instruction's parts, the
 * tools with the response schema, then each Content's role token and parts; a long text part
 * in pieces of PIECE_CHARACTERS), each with its tokens from the prompt's own count, and a
 * fingerprint of every prefix that ends a block: the first unit boundary at or past each
 * multiple of the block size. Two prompts share a block exactly when they share that
 * fingerprint (each chains all that comes before it). Linear in the prompt; long parts are
 * written out between event-loop turns.
 */
import { createHash } from "node:crypto";
import type { Content, MediaModality, ModalityTokenCount } from "@/lib/gemini/types";
import { jsonSizeWithin } from "@/lib/runtime/json-size-within";
import { stringifyJsonInSlices } from "@/lib/runtime/json-stringify-in-slices";
import { TimeSlices } from "@/lib/runtime/time-slices";
import type { FixedTokens } from "@/lib/engine/tokens";

/** How a family caches implicitly (the catalog's `implicitCache`). */
export interface ImplicitCacheTraits {
  /** Tokens a prefix is cached in: a hit counts whole blocks. */
  blockTokens: number;
  /** The smallest prefix cached. */
  minTokens: number;
  /** How long a prefix stays cached after its last use. */
  ttlSeconds: number;
}

/** A long text part is compared in pieces of this many characters. */
const PIECE_CHARACTERS = 4096;

/**
 * A unit whose JSON stays within this many characters is written with JSON.stringify at once
 * (well under a millisecond); a larger one in slices. An agent's tool list of 50 declarations is
 * about 30,000 characters, which the sliced writer took 0.7 ms for.
 */
const WHOLE_JSON_CHARACTERS = 262_144;

const MODALITY_ORDER: MediaModality[] = ["TEXT", "IMAGE", "VIDEO", "AUDIO", "DOCUMENT"];

interface Unit {
  /** What identifies the unit's content (its JSON, or a piece of text). */
  key: string;
  /** Its tokens per modality. */
  tokens: Map<MediaModality, number>;
}

export interface PromptPrefixes {
  /** The prompt's tokens, as counted. */
  totalTokens: number;
  /** Per block (block b covers tokens up to b × blockTokens): its fingerprint. */
  blocks: { tokens: number; hash: string }[];
  /** The tokens per modality of the prompt's first `tokens` tokens. */
  detailsOf(tokens: number): ModalityTokenCount[];
}

export interface PrefixRequest {
  contents: readonly Content[];
  systemInstruction?: Content;
  tools?: unknown;
  responseSchema?: unknown;
}

/** The prompt's block fingerprints, from its counted items (count-request's `onCounted`). */
export async function promptPrefixes(
  request: PrefixRequest,
  counted: readonly FixedTokens[],
  roleTokenPerContent: boolean,
  traits: ImplicitCacheTraits,
): Promise<PromptPrefixes> {
  const slices = new TimeSlices();
  const units = await promptUnits(request, counted, roleTokenPerContent, slices);
  const ends: number[] = [];
  let total = 0;
  for (const unit of units) {
    for (const tokens of unit.tokens.values()) total += tokens;
    ends.push(total);
  }
  // Each block's fingerprint is the chained hash at the first unit boundary reaching it.
  const blocks: PromptPrefixes["blocks"] = [];
  const chain = createHash("sha256");
  let unitIndex = 0;
  let hashAt = -1;
  let hash = "";
  for (let block = traits.blockTokens; block <= total; block += traits.blockTokens) {
    while (ends[unitIndex]! < block) unitIndex += 1;
    for (; hashAt < unitIndex; hashAt += 1) {
      chain.update(units[hashAt + 1]!.key);
      chain.update("\u0000");
      if (slices.dueAfterItem()) await slices.pause();
    }
    hash = chain.copy().digest("base64url");
    if (block >= traits.minTokens) blocks.push({ tokens: block, hash });
  }
  return { totalTokens: total, blocks, detailsOf: (tokens) => detailsOf(units, tokens) };
}

/** The units of a prompt in reading order, with the tokens counted for each. */
async function promptUnits(
  request: PrefixRequest,
  counted: readonly FixedTokens[],
  roleTokenPerContent: boolean,
  slices: TimeSlices,
): Promise<Unit[]> {
  const byPart = new Map<string, Map<MediaModality, number>>();
  const tools = new Map<MediaModality, number>();
  for (const item of counted) {
    let target = tools;
    if (item.place) {
      const key = `${item.place.content}:${item.place.part}`;
      target = byPart.get(key) ?? new Map();
      byPart.set(key, target);
    }
    target.set(item.modality, (target.get(item.modality) ?? 0) + item.tokens);
  }
  const units: Unit[] = [];
  const addContent = async (content: Content, index: number) => {
    if (roleTokenPerContent)
      units.push({ key: `role:${content.role ?? ""}`, tokens: new Map([["TEXT", 1]]) });
    const parts = content.parts ?? [];
    for (let partIndex = 0; partIndex < parts.length; partIndex++) {
      const part = parts[partIndex]!;
      const tokens = byPart.get(`${index}:${partIndex}`) ?? new Map<MediaModality, number>();
      if (onlyText(part) && part.text!.length > PIECE_CHARACTERS)
        units.push(...textPieces(part.text!, tokens.get("TEXT") ?? 0));
      else units.push({ key: await jsonKey(part, slices), tokens });
      if (slices.dueAfterItem()) await slices.pause();
    }
  };
  if (request.systemInstruction) await addContent(request.systemInstruction, -1);
  if (tools.size > 0)
    units.push({
      key: await jsonKey([request.tools, request.responseSchema], slices),
      tokens: tools,
    });
  for (let index = 0; index < request.contents.length; index++)
    await addContent(request.contents[index]!, index);
  return units;
}

/** A unit's JSON: at once when it is small, in slices when it is not. */
async function jsonKey(value: unknown, slices: TimeSlices): Promise<string> {
  if (jsonSizeWithin(value, WHOLE_JSON_CHARACTERS)) return JSON.stringify(value) ?? "";
  return (await stringifyJsonInSlices(value, { slices })) ?? "";
}

function onlyText(part: object): boolean {
  return Object.keys(part).every((key) => key === "text");
}

/** A long text in pieces, its tokens shared out by characters (the pieces sum to the whole). */
function textPieces(text: string, tokens: number): Unit[] {
  const units: Unit[] = [];
  let given = 0;
  for (let start = 0; start < text.length; start += PIECE_CHARACTERS) {
    const end = Math.min(text.length, start + PIECE_CHARACTERS);
    const upTo = Math.round((tokens * end) / text.length);
    units.push({ key: text.slice(start, end), tokens: new Map([["TEXT", upTo - given]]) });
    given = upTo;
  }
  return units;
}

/** Tokens per modality of the first `tokens` tokens (a unit cut at the end counts in part). */
function detailsOf(units: readonly Unit[], tokens: number): ModalityTokenCount[] {
  const totals = new Map<MediaModality, number>();
  let left = tokens;
  for (const unit of units) {
    if (left <= 0) break;
    let size = 0;
    for (const count of unit.tokens.values()) size += count;
    const share = size <= left ? 1 : left / size;
    let taken = 0;
    const entries = [...unit.tokens.entries()];
    entries.forEach(([modality, count], index) => {
      const part =
        index === entries.length - 1 ? Math.min(left, size) - taken : Math.floor(count * share);
      taken += part;
      totals.set(modality, (totals.get(modality) ?? 0) + part);
    });
    left -= Math.min(left, size);
  }
  return MODALITY_ORDER.filter((modality) => (totals.get(modality) ?? 0) > 0).map((modality) => ({
    modality,
    tokenCount: totals.get(modality)!,
  }));
}
