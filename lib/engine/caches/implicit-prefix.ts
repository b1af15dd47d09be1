/**
 * A prompt as the prefixes implicit caching compares (lib/engine/README.md, "Implicit
 * caching"): its units in the order the model reads them (the system instruction's parts, the
 * tools with the response schema, then each Content's role token and parts; a long text part
 * in pieces of PIECE_CHARACTERS), each with its tokens from the prompt's own count, and a
 * fingerprint of every prefix that ends a block: the first unit boundary at or past each
 * multiple of the block size. Two prompts share a block exactly when they share that
 * fingerprint (each chains all that comes before it). A unit is what the model reads of a
 * part: a function call's or response's `id` is no prompt text (no notation writes it), nor is
 * a thought signature where the family counts it as nothing, so two conversations that differ
 * only in those share their prefix (recorded: 2.5 Flash hits between tests of one run whose
 * calls had other ids and signatures). Linear in the prompt; long parts are written out between
 * event-loop turns.
 */
import { createHash } from "node:crypto";
import type { Content, MediaModality, ModalityTokenCount, Part } from "@/lib/gemini/types";
import { jsonSizeWithin } from "@/lib/runtime/json-size-within";
import { stringifyJsonInSlices } from "@/lib/runtime/json-stringify-in-slices";
import { TimeSlices } from "@/lib/runtime/time-slices";
import type { FixedTokens } from "@/lib/engine/tokens";
import type { ThoughtSignatureCost } from "@/lib/gemini/prompt-token-rules";

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
  /**
   * A cached count split per modality as the service splits it: in proportion to the prompt's
   * tokens of each modality, whatever the cached part holds (recorded on 2.5 Flash: 191 cached
   * of a 345-token prompt of 87 TEXT and 258 IMAGE report 48 TEXT and 143 IMAGE, though the
   * text comes first), rounded by largest remainder so the parts sum to the count.
   */
  detailsOf(tokens: number): ModalityTokenCount[];
}

/** How the family reads a prompt: what decides which of a part's fields are prompt text. */
export interface PromptReading {
  /** Each Content adds a role token. */
  roleTokenPerContent: boolean;
  /** What a thought signature stands for in the prompt (`none`: nothing). */
  thoughtSignatures: ThoughtSignatureCost;
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
  reading: PromptReading,
  traits: ImplicitCacheTraits,
): Promise<PromptPrefixes> {
  const slices = new TimeSlices();
  const units = await promptUnits(request, counted, reading, slices);
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
  const perModality = modalityTotals(units);
  return {
    totalTokens: total,
    blocks,
    detailsOf: (tokens) => proportionalDetails(perModality, total, tokens),
  };
}

/** The units of a prompt in reading order, with the tokens counted for each. */
async function promptUnits(
  request: PrefixRequest,
  counted: readonly FixedTokens[],
  reading: PromptReading,
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
    if (reading.roleTokenPerContent)
      units.push({ key: `role:${content.role ?? ""}`, tokens: new Map([["TEXT", 1]]) });
    const parts = content.parts ?? [];
    for (let partIndex = 0; partIndex < parts.length; partIndex++) {
      const part = parts[partIndex]!;
      const tokens = byPart.get(`${index}:${partIndex}`) ?? new Map<MediaModality, number>();
      if (onlyText(part) && part.text!.length > PIECE_CHARACTERS)
        units.push(...textPieces(part.text!, tokens.get("TEXT") ?? 0));
      else units.push({ key: await jsonKey(promptTextOf(part, reading), slices), tokens });
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

/** What the model reads of a part: no call or response id, no signature that counts nothing. */
function promptTextOf(part: Part, reading: PromptReading): Part {
  const { thoughtSignature, functionCall, functionResponse, ...rest } = part;
  const read: Part = rest;
  if (functionCall) {
    const { id: _callId, ...call } = functionCall;
    read.functionCall = call;
  }
  if (functionResponse) {
    const { id: _responseId, ...response } = functionResponse;
    read.functionResponse = response;
  }
  if (thoughtSignature !== undefined && reading.thoughtSignatures !== "none")
    read.thoughtSignature = thoughtSignature;
  return read;
}

/** The prompt's tokens per modality. */
function modalityTotals(units: readonly Unit[]): Map<MediaModality, number> {
  const totals = new Map<MediaModality, number>();
  for (const unit of units)
    for (const [modality, count] of unit.tokens)
      totals.set(modality, (totals.get(modality) ?? 0) + count);
  return totals;
}

/**
 * `tokens` shared out over the prompt's modalities in proportion to their tokens: each its
 * whole share, then one more to those with the largest fractions until the shares sum to
 * `tokens`.
 */
export function proportionalDetails(
  perModality: ReadonlyMap<MediaModality, number>,
  total: number,
  tokens: number,
): ModalityTokenCount[] {
  const shares = MODALITY_ORDER.filter((modality) => (perModality.get(modality) ?? 0) > 0).map(
    (modality) => {
      const exact = total > 0 ? (tokens * perModality.get(modality)!) / total : 0;
      return { modality, tokenCount: Math.floor(exact), fraction: exact - Math.floor(exact) };
    },
  );
  let left = tokens - shares.reduce((sum, share) => sum + share.tokenCount, 0);
  for (const share of [...shares].sort((a, b) => b.fraction - a.fraction)) {
    if (left <= 0) break;
    share.tokenCount += 1;
    left -= 1;
  }
  return shares
    .filter((share) => share.tokenCount > 0)
    .map(({ modality, tokenCount }) => ({ modality, tokenCount }));
}
