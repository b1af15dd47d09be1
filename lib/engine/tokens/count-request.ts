/**
 * countTokens of a request, and the prompt count of a generation (spec "POST
 * /v1beta/{model}:countTokens", api-notes §4), by the model family's rules (the catalog's
 * `promptTokens`, lib/engine/README.md): text parts counted one by one with the family
 * vocabulary, one role token per Content where the family adds it (the system instruction is
 * one Content), function declarations, calls and responses in the family's notation
 * (function-text.ts), a thought signature as the thinking it stands for, media by the family's
 * costs; a cache by its model's cache rules, its system instruction without a role token, and
 * countTokens by the model's countTokens rules where the service counts those otherwise (2.0).
 * Knowingly different: a service-made thought signature counts nothing (it is
 * encrypted), toolConfig and built-in tools count nothing (measured: the service adds none),
 * code execution parts count as their text, and a text file longer than the probe keeps is
 * extrapolated from its first MAX_TEXT_BYTES.
 */
import "server-only";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type {
  Content,
  ContentTokenCount,
  CountTokensResponse,
  MediaModality,
  MediaResolution,
  ModalityTokenCount,
  Tool,
  ToolConfig,
} from "@/lib/gemini/types";
import type { ProbedMedia } from "@/lib/engine/media/probe";
import { TimeSlices } from "@/lib/runtime/time-slices";
import { PromptItems, type FixedTokens, type NumberedContent } from "./prompt-items";
import { countTexts } from "./tokenizer-api";
import type { TokenizerText } from "./tokenizer-client";

export interface CountableRequest {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  mediaResolution?: MediaResolution;
  /** generationConfig.responseSchema: part of the prompt on families that count it. */
  responseSchema?: unknown;
  /** generationConfig.responseModalities: image output adds role tokens on some families. */
  responseModalities?: readonly string[];
}

/**
 * What a file reference resolves to: the probe itself, a stored file carrying its probe, or a
 * medium at an outside URL (`remote`), which the engine cannot fetch offline.
 */
export type FileReference =
  | ProbedMedia
  | { mimeType: string; probed?: unknown; path?: string; sizeBytes?: number }
  | { remote: true; uri: string; mimeType: string };

export interface CountRequestOptions {
  /** Resolves `fileData.fileUri` (the file store supplies it; it throws the service's 403 itself). */
  resolveFile?: (fileUri: string) => FileReference | Promise<FileReference>;
  signal?: AbortSignal;
  /**
   * `countTokens`: the answer of that method (its role-token rule, and the per-Content split it
   * carries; by the model's `countTokensCounting` rules where it has them); `prompt` (default):
   * a generation's prompt; `cache`: a cache's size at creation (by the model's `cacheTokens`
   * rules where it has them; the system instruction has no role token).
   */
  purpose?: "countTokens" | "prompt" | "cache";
  /**
   * Receives every counted item with its place (a part of a Content, or null: tools and the
   * response schema), before role tokens are added: implicit caching finds a prompt's prefix
   * with them (lib/engine/caches/implicit-prefix.ts).
   */
  onCounted?: (counted: readonly FixedTokens[]) => void;
}

const MODALITY_ORDER: MediaModality[] = ["TEXT", "IMAGE", "VIDEO", "AUDIO", "DOCUMENT"];

/**
 * Counts a request's input tokens as the service does: `totalTokens` and `promptTokensDetails`
 * per modality (for countTokens also the per-Content split). Unusable media fail with
 * ApiError 400 naming the part.
 */
export async function countRequestTokens(
  traits: ModelTraits,
  input: CountableRequest,
  options: CountRequestOptions = {},
): Promise<CountTokensResponse> {
  options.signal?.throwIfAborted();
  const purpose = options.purpose ?? "prompt";
  const counting =
    purpose === "cache"
      ? { ...traits, ...traits.cacheTokens }
      : purpose === "countTokens"
        ? { ...traits, ...traits.countTokensCounting }
        : traits;
  const rules = counting.promptTokens;
  if (!rules) throw new Error(`${traits.name} has no prompt token rules`);
  const roleTokens =
    purpose === "countTokens"
      ? counting.countTokensRoleTokens
      : counting.roleTokenPerContent ||
        (purpose === "prompt" &&
          counting.imageOutputRoleTokens === true &&
          asksForImages(input.responseModalities));
  // Everything here is work on this thread, for megabytes of parts or of function values:
  // other requests get turns in between.
  const slices = new TimeSlices();
  const contents = numberedContents(input);
  const items = new PromptItems(counting.tokenizer, rules, input, options, slices);
  await items.addContents(contents);
  await items.addTools();
  await items.addResponseSchema();
  const counted = await countItems(counting, items, slices, options.signal);
  options.onCounted?.(counted);
  // A cache's system instruction adds no role token (recorded: 2.0 Flash-Lite caches, 2025-2026);
  // in a countTokens answer a Content sent without a role adds none (recorded on 2.0 Flash: the
  // fox sentence without a role counts 10, as its text).
  const roleTokenContents =
    purpose === "cache"
      ? input.contents.length
      : purpose === "countTokens"
        ? contents.filter(({ content, index }) => index < 0 || hasRole(content)).length
        : contents.length;
  const promptTokensDetails = await modalityDetails(
    counted,
    roleTokens ? roleTokenContents : 0,
    slices,
  );
  const totalTokens = promptTokensDetails.reduce((sum, item) => sum + item.tokenCount, 0);
  const split =
    purpose === "countTokens"
      ? await contentSplit(input, contents, counted, roleTokens, slices)
      : {};
  return {
    totalTokens,
    ...split,
    ...(promptTokensDetails.length ? { promptTokensDetails } : {}),
  };
}

function asksForImages(modalities: readonly string[] | undefined): boolean {
  return (modalities ?? []).some((modality) => modality.toUpperCase() === "IMAGE");
}

function hasRole(content: Content): boolean {
  return typeof content.role === "string" && content.role !== "";
}

/** The system instruction (Content -1), then the contents. */
function numberedContents(input: CountableRequest): NumberedContent[] {
  const contents: NumberedContent[] = [];
  if (input.systemInstruction) contents.push({ content: input.systemInstruction, index: -1 });
  for (let index = 0; index < input.contents.length; index++)
    contents.push({ content: input.contents[index]!, index });
  return contents;
}

/** Every item's tokens: the fixed ones as they are, the texts by the family vocabulary. */
async function countItems(
  traits: ModelTraits,
  items: PromptItems,
  slices: TimeSlices,
  signal: AbortSignal | undefined,
): Promise<FixedTokens[]> {
  const { texts } = items;
  const textList: TokenizerText[] = [];
  for (let index = 0; index < texts.length; index++) {
    textList.push(texts[index]!.text);
    if (slices.dueAfterItem()) await slices.pause();
  }
  const counts = await countTexts(traits.tokenizer, textList, signal);
  items.rememberDeclarations(counts);
  const counted: FixedTokens[] = [...items.fixed];
  for (let index = 0; index < texts.length; index++) {
    const { place, scale } = texts[index]!;
    counted.push({ place, modality: "TEXT", tokens: Math.round(counts[index]! * scale) });
    if (slices.dueAfterItem()) await slices.pause();
  }
  return counted;
}

/** promptTokensDetails: the tokens per modality, with `roleTokens` more text tokens. */
async function modalityDetails(
  counted: readonly FixedTokens[],
  roleTokens: number,
  slices: TimeSlices,
): Promise<ModalityTokenCount[]> {
  const totals = new Map<MediaModality, number>();
  const add = (modality: MediaModality, tokens: number) =>
    totals.set(modality, (totals.get(modality) ?? 0) + tokens);
  for (let index = 0; index < counted.length; index++) {
    add(counted[index]!.modality, counted[index]!.tokens);
    if (slices.dueAfterItem()) await slices.pause();
  }
  if (roleTokens) add("TEXT", roleTokens);
  return MODALITY_ORDER.filter((modality) => (totals.get(modality) ?? 0) > 0).map((modality) => ({
    modality,
    tokenCount: totals.get(modality)!,
  }));
}

/** The service's per-Content split of a countTokens answer: each part, and the role token. */
async function contentSplit(
  input: CountableRequest,
  contents: readonly NumberedContent[],
  counted: readonly FixedTokens[],
  roleTokens: boolean,
  slices: TimeSlices,
): Promise<Pick<CountTokensResponse, "systemInstructionsTokens" | "contentTokens">> {
  // Each Content's part totals, in one pass over what was counted (index -1: the system instruction).
  const parts = new Map<number, number[]>();
  for (const { content, index } of contents) {
    parts.set(index, new Array<number>((content.parts ?? []).length).fill(0));
    if (slices.dueAfterItem()) await slices.pause();
  }
  for (let index = 0; index < counted.length; index++) {
    const { place, tokens } = counted[index]!;
    if (place) parts.get(place.content)![place.part]! += tokens;
    if (slices.dueAfterItem()) await slices.pause();
  }
  const ofContent = (index: number, roleToken: boolean): ContentTokenCount => {
    const partTokens = parts.get(index)!;
    return {
      ...(partTokens.length ? { partTokens } : {}),
      ...(roleTokens && roleToken ? { roleTokens: 1 } : {}),
    };
  };
  const contentTokens: ContentTokenCount[] = [];
  for (let index = 0; index < input.contents.length; index++) {
    contentTokens.push(ofContent(index, hasRole(input.contents[index]!)));
    if (slices.dueAfterItem()) await slices.pause();
  }
  return {
    systemInstructionsTokens: input.systemInstruction ? ofContent(-1, true) : {},
    contentTokens,
  };
}
