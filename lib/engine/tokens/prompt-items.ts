/**
 * What each part of a request adds to its prompt, for count-request.ts: texts for the family
 * vocabulary (with the factor a truncated text file's count is scaled by) and tokens known
 * without it (markers, thought signatures, media by the family's costs), each at its place.
 * Megabytes of parts or of function values are gone through in slices.
 */
import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { PromptTokenRules } from "@/lib/gemini/prompt-token-rules";
import type { Content, MediaModality, Part } from "@/lib/gemini/types";
import {
  MediaProbeError,
  mediaKindOf,
  probeMedia,
  type ProbedMedia,
} from "@/lib/engine/media/probe";
import { inlineDataBytes } from "@/lib/engine/base64-in-slices";
import { stringifyJsonInSlices } from "@/lib/runtime/json-stringify-in-slices";
import { heldText } from "@/lib/runtime/pieced-text";
import { runInSlices, TimeSlices } from "@/lib/runtime/time-slices";
import type { CountableRequest, CountRequestOptions, FileReference } from "./count-request";
import {
  declarationTextSteps,
  functionCallTextSteps,
  functionResponseTextSteps,
  responseSchemaTextSteps,
  type PromptText,
} from "./function-text";
import { declarationKey, rememberCount, rememberedCount } from "./declaration-counts";
import { mediaTokenCounts, resolutionKey } from "./media-tokens";
import { thoughtSignatureTokens } from "./thought-signature";
import type { TokenizerText } from "./tokenizer-client";

/** Where counted tokens belong: a part of a Content (-1: the system instruction), or neither. */
export type Place = { content: number; part: number } | null;

/** Tokens known without the vocabulary. */
export interface FixedTokens {
  place: Place;
  modality: MediaModality;
  tokens: number;
}

/**
 * A text to tokenize (a part's long text as it is held, lib/runtime/encoded-text.ts, never
 * decoded here); its count is multiplied by `scale`.
 */
export interface TextToCount {
  text: TokenizerText;
  scale: number;
  place: Place;
}

/** A Content of the request with its index (the system instruction is -1). */
export interface NumberedContent {
  content: Content;
  index: number;
}

/** Collects a request's prompt items: call `addContents`, `addTools`, `addResponseSchema`. */
export class PromptItems {
  readonly fixed: FixedTokens[] = [];
  readonly texts: TextToCount[] = [];
  /** The index of the Content the current turn starts at (see currentTurnStart). */
  private currentTurn = 0;
  /** Declarations written out here, to remember once their texts are counted. */
  private readonly written: { key: string; from: number; to: number; fixed: number }[] = [];

  constructor(
    private readonly tokenizer: string,
    private readonly rules: PromptTokenRules,
    private readonly input: CountableRequest,
    private readonly options: CountRequestOptions,
    private readonly slices: TimeSlices,
  ) {}

  async addContents(contents: readonly NumberedContent[]): Promise<void> {
    this.currentTurn = currentTurnStart(contents);
    for (const { content, index } of contents) {
      const parts = content.parts ?? [];
      for (let partIndex = 0; partIndex < parts.length; partIndex++) {
        const part = parts[partIndex]!;
        const place = { content: index, part: partIndex };
        if (textOnly(part)) {
          this.addPartText(part, place);
          if (this.slices.dueAfterItem()) await this.slices.pause();
          continue;
        }
        const field = `${index < 0 ? "system_instruction" : `contents[${index}]`}.parts[${partIndex}]`;
        await this.addPart(part, place, field);
        if (this.slices.due()) await this.slices.pause();
      }
    }
  }

  async addTools(): Promise<void> {
    for (const tool of this.input.tools ?? []) {
      for (const declaration of tool.functionDeclarations ?? []) {
        const format = this.rules.functionText;
        const key = declarationKey(this.tokenizer, format, declaration);
        const known = key === null ? undefined : rememberedCount(key);
        if (known !== undefined) {
          this.fixed.push({ place: null, modality: "TEXT", tokens: known });
          continue;
        }
        const steps = declarationTextSteps(format, declaration);
        const text = await runInSlices(steps, this.slices);
        const from = this.texts.length;
        await this.addPromptText(null, text);
        if (key !== null)
          this.written.push({ key, from, to: this.texts.length, fixed: text.fixed });
        if (this.slices.due()) await this.slices.pause();
      }
    }
  }

  /** Remembers the declarations written here, given every text's count (in `texts` order). */
  rememberDeclarations(counts: readonly number[]): void {
    for (const { key, from, to, fixed } of this.written) {
      let tokens = fixed;
      for (let index = from; index < to; index++) tokens += counts[index]!;
      rememberCount(key, tokens);
    }
  }

  /** generationConfig.responseSchema, on families that count it. */
  async addResponseSchema(): Promise<void> {
    if (!this.rules.responseSchema || this.input.responseSchema === undefined) return;
    const steps = responseSchemaTextSteps(this.input.responseSchema);
    await this.addPromptText(null, await runInSlices(steps, this.slices));
  }

  private async addPromptText(place: Place, text: PromptText): Promise<void> {
    for (let index = 0; index < text.texts.length; index++) {
      this.texts.push({ text: text.texts[index]!, scale: 1, place });
      if (this.slices.dueAfterItem()) await this.slices.pause();
    }
    if (text.fixed) this.fixed.push({ place, modality: "TEXT", tokens: text.fixed });
  }

  private async addPart(
    part: Part,
    place: Place,
    field: string,
    returnedByFunction = false,
  ): Promise<void> {
    const format = this.rules.functionText;
    this.addPartText(part, place);
    if (part.thoughtSignature && place && place.content >= this.currentTurn) {
      const tokens = this.signatureTokens(part.thoughtSignature);
      if (tokens) this.fixed.push({ place, modality: "TEXT", tokens });
    }
    if (part.functionCall) {
      const steps = functionCallTextSteps(format, part.functionCall);
      await this.addPromptText(place, await runInSlices(steps, this.slices));
    }
    if (part.functionResponse) {
      const { parts: media, ...response } = part.functionResponse;
      const steps = functionResponseTextSteps(format, response);
      await this.addPromptText(place, await runInSlices(steps, this.slices));
      // Media a function returned count as media (their references resolved for the caller).
      for (const [index, item] of (media ?? []).entries())
        await this.addPart(item, place, `${field}.function_response.parts[${index}]`, true);
    }
    if (part.executableCode) this.texts.push({ text: part.executableCode.code, scale: 1, place });
    if (part.codeExecutionResult?.output)
      this.texts.push({ text: part.codeExecutionResult.output, scale: 1, place });
    for (const value of [part.toolCall, part.toolResponse]) {
      if (value === undefined) continue;
      const text = (await stringifyJsonInSlices(value, { slices: this.slices }))!;
      this.texts.push({ text, scale: 1, place });
    }
    if (part.inlineData)
      await this.addInlineData(part, place, `${field}.inline_data`, returnedByFunction);
    if (part.fileData)
      await this.addFileData(part, place, `${field}.file_data`, returnedByFunction);
  }

  /** A part's text, as it is held: a long one is counted without being made a string here. */
  private addPartText(part: Part, place: Place): void {
    const text = heldText(part, "text") as TokenizerText | undefined;
    if (text !== undefined) this.texts.push({ text, scale: 1, place });
  }

  /** What a signature of the current turn adds, by the family's rule. */
  private signatureTokens(signature: string): number {
    return this.rules.thoughtSignatures === "thinking" ? thoughtSignatureTokens(signature) : 0;
  }

  private async addInlineData(
    part: Part,
    place: Place,
    field: string,
    returnedByFunction: boolean,
  ): Promise<void> {
    const { mimeType } = part.inlineData!;
    const bytes = await inlineDataBytes(part.inlineData!, this.slices);
    const media = await probeOrFail(
      () => probeMedia({ bytes }, mimeType, this.options.signal),
      field,
    );
    this.addMedia(media, part, place, field, returnedByFunction);
  }

  private async addFileData(
    part: Part,
    place: Place,
    field: string,
    returnedByFunction: boolean,
  ): Promise<void> {
    if (!this.options.resolveFile) {
      throw ApiError.invalidArgument(`${field}: file references cannot be resolved here.`, [
        {
          field: `${field}.file_uri`,
          description: "No file store is available to resolve this file.",
        },
      ]);
    }
    const reference = await this.options.resolveFile(part.fileData!.fileUri);
    const media = await mediaOfReference(
      reference,
      part.fileData!.mimeType,
      field,
      this.options.signal,
    );
    this.addMedia(media, part, place, field, returnedByFunction);
  }

  /**
   * A medium by the family's costs (`returnedByFunction`: sent in a function's response); a
   * text file by its text (scaled up when the probe cut it).
   */
  private addMedia(
    media: ProbedMedia,
    part: Part,
    place: Place,
    field: string,
    returnedByFunction: boolean,
  ): void {
    if (media.kind !== "text") {
      const resolution = resolutionKey(this.input.mediaResolution, part.mediaResolution);
      for (const { modality, tokenCount } of mediaTokenCounts(
        media,
        this.rules.media,
        resolution,
        part.videoMetadata,
        returnedByFunction,
      ))
        this.fixed.push({ place, modality, tokens: tokenCount });
      return;
    }
    if (media.text === undefined) {
      throw ApiError.invalidArgument(`${field}: the text of this file is not available.`, [
        { field, description: "The text file has not been read." },
      ]);
    }
    const keptBytes = Buffer.byteLength(media.text, "utf8");
    const scale = media.textTruncated && keptBytes > 0 ? media.sizeBytes / keptBytes : 1;
    this.texts.push({ text: media.text, scale, place });
  }
}

/**
 * Where the current turn starts: the last user Content without a function response (a
 * question, media, an instruction); the model's calls and the Contents answering them (function
 * responses, with any media sent beside them) belong to the same turn. Thought signatures count
 * only there (recorded on 2.5 and 3.x: a signature before a later user message adds nothing).
 */
function currentTurnStart(contents: readonly NumberedContent[]): number {
  let start = 0;
  for (const { content, index } of contents) {
    if (index < 0 || content.role === "model") continue;
    if (!(content.parts ?? []).some((part) => part.functionResponse !== undefined)) start = index;
  }
  return start;
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

async function mediaOfReference(
  reference: FileReference,
  mimeTypeHint: string | undefined,
  field: string,
  signal: AbortSignal | undefined,
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
