/**
 * countTokens of a request, and the prompt count of a generation (spec "POST
 * /v1beta/{model}:countTokens", api-notes §4), by the model family's rules (the catalog's
 * `promptTokens`, lib/engine/README.md): text parts counted one by one with the family
 * vocabulary, one role token per Content where the family adds it (the system instruction is
 * one Content), function declarations, calls and responses in the family's notation
 * (function-text.ts), a thought signature as the thinking it stands for, media by the family's
 * costs. Knowingly different: a service-made thought signature counts nothing (it is
 * encrypted), toolConfig and built-in tools count nothing (measured: the service adds none),
 * code execution parts count as their text, and a text file longer than the probe keeps is
 * extrapolated from its first MAX_TEXT_BYTES.
 */
import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { PromptTokenRules } from "@/lib/gemini/prompt-token-rules";
import type {
  Content,
  ContentTokenCount,
  CountTokensResponse,
  MediaModality,
  MediaResolution,
  ModalityTokenCount,
  Part,
  Tool,
  ToolConfig,
} from "@/lib/gemini/types";
import {
  MediaProbeError,
  mediaKindOf,
  probeMedia,
  type ProbedMedia,
} from "@/lib/engine/media/probe";
import {
  declarationTextSteps,
  functionCallTextSteps,
  functionResponseTextSteps,
  responseSchemaTextSteps,
  type PromptText,
} from "./function-text";
import { mediaTokenCounts, resolutionKey } from "./media-tokens";
import { stringifyJsonInSlices } from "@/lib/engine/json-text-pieces";
import { runInSlices, TimeSlices } from "@/lib/engine/time-slices";
import { thoughtSignatureTokens } from "./thought-signature";
import { countTexts } from "./tokenizer-api";

export interface CountableRequest {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  mediaResolution?: MediaResolution;
  /** generationConfig.responseSchema: part of the prompt on families that count it. */
  responseSchema?: unknown;
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
   * carries); `prompt` (default): a generation's or a cache's prompt.
   */
  purpose?: "countTokens" | "prompt";
}

const MODALITY_ORDER: MediaModality[] = ["TEXT", "IMAGE", "VIDEO", "AUDIO", "DOCUMENT"];

/** Where counted tokens belong: a part of a Content (-1: the system instruction), or neither. */
type Place = { content: number; part: number } | null;

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
  const { signal } = options;
  signal?.throwIfAborted();
  const rules: PromptTokenRules | undefined = traits.promptTokens;
  if (!rules) throw new Error(`${traits.name} has no prompt token rules`);
  const purpose = options.purpose ?? "prompt";
  const roleTokens =
    purpose === "countTokens" ? traits.countTokensRoleTokens : traits.roleTokenPerContent;
  const format = rules.functionText;

  /** Tokens known without the vocabulary, by place and modality. */
  const fixed: { place: Place; modality: MediaModality; tokens: number }[] = [];
  /** Texts to tokenize, each with its place and the factor its count is scaled by. */
  const texts: { text: string; scale: number; place: Place }[] = [];
  const addText = async (place: Place, text: PromptText) => {
    for (let index = 0; index < text.texts.length; index++) {
      texts.push({ text: text.texts[index]!, scale: 1, place });
      if (index % 4096 === 4095 && slices.due()) await slices.pause();
    }
    if (text.fixed) fixed.push({ place, modality: "TEXT", tokens: text.fixed });
  };

  // The system instruction is Content -1; a Content's field name is only written for an error.
  const contents: { content: Content; index: number }[] = [];
  if (input.systemInstruction) contents.push({ content: input.systemInstruction, index: -1 });
  for (let index = 0; index < input.contents.length; index++)
    contents.push({ content: input.contents[index]!, index });
  const fieldOf = (index: number) => (index < 0 ? "system_instruction" : `contents[${index}]`);

  // Everything here is work on this thread, for megabytes of parts or of function values:
  // other requests get turns in between (issue 14).
  const slices = new TimeSlices();
  const inSlices = <Result>(steps: Generator<void, Result, void>) => runInSlices(steps, slices);
  let textParts = 0;
  for (const { content, index } of contents) {
    const parts = content.parts ?? [];
    for (let partIndex = 0; partIndex < parts.length; partIndex++) {
      const part = parts[partIndex]!;
      const place = { content: index, part: partIndex };
      if (!textOnly(part)) {
        await collectPart(part, place, `${fieldOf(index)}.parts[${partIndex}]`);
        if (slices.due()) await slices.pause();
      } else {
        if (part.text !== undefined) texts.push({ text: part.text, scale: 1, place });
        // A look at the clock costs more than a text part: one per 256.
        if (++textParts % 256 === 0 && slices.due()) await slices.pause();
      }
    }
  }
  for (const tool of input.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      await addText(null, await inSlices(declarationTextSteps(format, declaration)));
      if (slices.due()) await slices.pause();
    }
  }
  if (rules.responseSchema && input.responseSchema !== undefined)
    await addText(null, await inSlices(responseSchemaTextSteps(input.responseSchema)));

  const textList: string[] = [];
  for (let index = 0; index < texts.length; index++) {
    textList.push(texts[index]!.text);
    if (index % 4096 === 4095 && slices.due()) await slices.pause();
  }
  const counts = await countTexts(traits.tokenizer, textList, signal);
  const counted: { place: Place; modality: MediaModality; tokens: number }[] = [...fixed];
  for (let index = 0; index < texts.length; index++) {
    const { place, scale } = texts[index]!;
    counted.push({ place, modality: "TEXT", tokens: Math.round(counts[index]! * scale) });
    if (index % 4096 === 0 && slices.due()) await slices.pause();
  }

  const totals = new Map<MediaModality, number>();
  const add = (modality: MediaModality, tokens: number) =>
    totals.set(modality, (totals.get(modality) ?? 0) + tokens);
  for (let index = 0; index < counted.length; index++) {
    add(counted[index]!.modality, counted[index]!.tokens);
    if (index % 4096 === 0 && slices.due()) await slices.pause();
  }
  if (roleTokens) add("TEXT", contents.length);

  const promptTokensDetails: ModalityTokenCount[] = MODALITY_ORDER.filter(
    (modality) => (totals.get(modality) ?? 0) > 0,
  ).map((modality) => ({ modality, tokenCount: totals.get(modality)! }));
  const totalTokens = promptTokensDetails.reduce((sum, item) => sum + item.tokenCount, 0);
  const split = purpose === "countTokens" ? await contentSplit() : {};
  return {
    totalTokens,
    ...split,
    ...(promptTokensDetails.length ? { promptTokensDetails } : {}),
  };

  /** The service's per-Content split of a countTokens answer: each part, and the role token. */
  async function contentSplit(): Promise<
    Pick<CountTokensResponse, "systemInstructionsTokens" | "contentTokens">
  > {
    // Each Content's part totals, in one pass over what was counted (index -1: the system instruction).
    const parts = new Map<number, number[]>();
    for (const { content, index } of contents)
      parts.set(index, new Array<number>((content.parts ?? []).length).fill(0));
    for (let index = 0; index < counted.length; index++) {
      const { place, tokens } = counted[index]!;
      if (place) parts.get(place.content)![place.part]! += tokens;
      if (index % 4096 === 0 && slices.due()) await slices.pause();
    }
    const ofContent = (_content: Content, index: number): ContentTokenCount => {
      const partTokens = parts.get(index)!;
      return {
        ...(partTokens.length ? { partTokens } : {}),
        ...(roleTokens ? { roleTokens: 1 } : {}),
      };
    };
    return {
      systemInstructionsTokens: input.systemInstruction
        ? ofContent(input.systemInstruction, -1)
        : {},
      contentTokens: input.contents.map(ofContent),
    };
  }

  async function collectPart(part: Part, place: Place, field: string): Promise<void> {
    if (part.text !== undefined) texts.push({ text: part.text, scale: 1, place });
    if (part.thoughtSignature) {
      const thinking = thoughtSignatureTokens(part.thoughtSignature);
      if (thinking) fixed.push({ place, modality: "TEXT", tokens: thinking });
    }
    if (part.functionCall)
      await addText(place, await inSlices(functionCallTextSteps(format, part.functionCall)));
    if (part.functionResponse) {
      const { parts: media, ...response } = part.functionResponse;
      await addText(place, await inSlices(functionResponseTextSteps(format, response)));
      // Media a function returned count as media (their references resolved for the caller).
      for (const [index, item] of (media ?? []).entries())
        await collectPart(item, place, `${field}.function_response.parts[${index}]`);
    }
    if (part.executableCode) texts.push({ text: part.executableCode.code, scale: 1, place });
    if (part.codeExecutionResult?.output)
      texts.push({ text: part.codeExecutionResult.output, scale: 1, place });
    if (part.toolCall)
      texts.push({
        text: (await stringifyJsonInSlices(part.toolCall, { slices }))!,
        scale: 1,
        place,
      });
    if (part.toolResponse)
      texts.push({
        text: (await stringifyJsonInSlices(part.toolResponse, { slices }))!,
        scale: 1,
        place,
      });
    if (part.inlineData) {
      const mediaField = `${field}.inline_data`;
      const bytes = Buffer.from(part.inlineData.data, "base64");
      const media = await probeOrFail(
        () => probeMedia({ bytes }, part.inlineData!.mimeType, signal),
        mediaField,
      );
      countMedia(media, part, place, mediaField);
    }
    if (part.fileData) {
      const mediaField = `${field}.file_data`;
      if (!options.resolveFile) {
        throw ApiError.invalidArgument(`${mediaField}: file references cannot be resolved here.`, [
          {
            field: `${mediaField}.file_uri`,
            description: "No file store is available to resolve this file.",
          },
        ]);
      }
      const reference = await options.resolveFile(part.fileData.fileUri);
      const media = await mediaOfReference(reference, part.fileData.mimeType, mediaField);
      countMedia(media, part, place, mediaField);
    }
  }

  function countMedia(media: ProbedMedia, part: Part, place: Place, field: string): void {
    if (media.kind !== "text") {
      const resolution = resolutionKey(input.mediaResolution, part.mediaResolution);
      for (const { modality, tokenCount } of mediaTokenCounts(
        media,
        rules!.media,
        resolution,
        part.videoMetadata,
      ))
        fixed.push({ place, modality, tokens: tokenCount });
      return;
    }
    if (media.text === undefined) {
      throw ApiError.invalidArgument(`${field}: the text of this file is not available.`, [
        { field, description: "The text file has not been read." },
      ]);
    }
    const keptBytes = Buffer.byteLength(media.text, "utf8");
    const scale = media.textTruncated && keptBytes > 0 ? media.sizeBytes / keptBytes : 1;
    texts.push({ text: media.text, scale, place });
  }

  async function mediaOfReference(
    reference: FileReference,
    mimeTypeHint: string | undefined,
    field: string,
  ): Promise<ProbedMedia> {
    if (isProbedMedia(reference)) return reference;
    if ("remote" in reference) return remoteMedia(reference.mimeType || mimeTypeHint || "");
    if (isProbedMedia(reference.probed)) return reference.probed;
    const mimeType = reference.mimeType || mimeTypeHint;
    if (reference.path && mimeType && mediaKindOf(mimeType)) {
      return probeOrFail(() => probeMedia({ path: reference.path! }, mimeType, signal), field);
    }
    throw ApiError.invalidArgument(
      `${field}: the file has not been processed; wait until its state is ACTIVE.`,
      [{ field, description: "File is not ACTIVE." }],
    );
  }
}

/** A part that adds nothing but its text (most parts): counted without any awaiting. */
function textOnly(part: Part): boolean {
  return (
    !part.thoughtSignature &&
    !part.functionCall &&
    !part.functionResponse &&
    !part.executableCode &&
    !part.codeExecutionResult &&
    !part.toolCall &&
    !part.toolResponse &&
    !part.inlineData &&
    !part.fileData
  );
}

/**
 * An outside URL's medium as far as it can be known offline: its kind from the MIME type, one
 * image or page, no duration, no text. (The service fetches it and counts what it finds.)
 */
function remoteMedia(mimeType: string): ProbedMedia {
  const kind = mediaKindOf(mimeType) ?? "document";
  return { kind, mimeType, sizeBytes: 0, pages: 1, ...(kind === "text" ? { text: "" } : {}) };
}

function isProbedMedia(value: unknown): value is ProbedMedia {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.kind === "string" &&
    typeof record.mimeType === "string" &&
    typeof record.sizeBytes === "number"
  );
}

async function probeOrFail(probe: () => Promise<ProbedMedia>, field: string): Promise<ProbedMedia> {
  try {
    return await probe();
  } catch (error) {
    if (error instanceof MediaProbeError) {
      throw ApiError.invalidArgument(
        `Unable to process input media at ${field}: ${error.message}`,
        [{ field, description: error.message }],
      );
    }
    throw error;
  }
}
