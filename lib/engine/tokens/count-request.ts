/**
 * countTokens of a request (spec "POST /v1beta/{model}:countTokens", api-notes §4): text parts
 * counted one by one with the family vocabulary and summed, one role token per Content on 2.5+
 * (the system instruction is one Content), media by their fixed costs. Approximations, known:
 * tools count as the JSON text of their function declarations (other tool kinds and toolConfig
 * count nothing); functionCall/functionResponse parts count as their JSON text; a text file
 * longer than the probe keeps is extrapolated from its first MAX_TEXT_BYTES.
 */
import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type {
  Content,
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
import { mediaTokenCount } from "./media-tokens";
import { countTexts } from "./tokenizer-api";

export interface CountableRequest {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  mediaResolution?: MediaResolution;
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
}

const MODALITY_ORDER: MediaModality[] = ["TEXT", "IMAGE", "VIDEO", "AUDIO", "DOCUMENT"];

/**
 * Counts a request's input tokens as the service's countTokens does: `totalTokens` and
 * `promptTokensDetails` per modality. Unusable media fail with ApiError 400 naming the part.
 */
export async function countRequestTokens(
  traits: ModelTraits,
  input: CountableRequest,
  options: CountRequestOptions = {},
): Promise<CountTokensResponse> {
  const { signal } = options;
  signal?.throwIfAborted();
  const totals = new Map<MediaModality, number>();
  const add = (modality: MediaModality, tokens: number) =>
    totals.set(modality, (totals.get(modality) ?? 0) + tokens);
  /** Texts to tokenize, each with the factor its count is scaled by (1 unless extrapolated). */
  const texts: { text: string; scale: number }[] = [];

  const contents: { content: Content; field: string }[] = [];
  if (input.systemInstruction)
    contents.push({ content: input.systemInstruction, field: "system_instruction" });
  input.contents.forEach((content, index) =>
    contents.push({ content, field: `contents[${index}]` }),
  );

  for (const { content, field } of contents) {
    if (traits.roleTokenPerContent) add("TEXT", 1);
    for (const [index, part] of (content.parts ?? []).entries()) {
      await collectPart(part, `${field}.parts[${index}]`);
    }
  }
  for (const tool of input.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? [])
      texts.push({ text: JSON.stringify(declaration), scale: 1 });
  }

  const counts = await countTexts(
    traits.tokenizer,
    texts.map((item) => item.text),
    signal,
  );
  counts.forEach((count, index) => add("TEXT", Math.round(count * texts[index]!.scale)));

  const promptTokensDetails: ModalityTokenCount[] = MODALITY_ORDER.filter(
    (modality) => (totals.get(modality) ?? 0) > 0,
  ).map((modality) => ({ modality, tokenCount: totals.get(modality)! }));
  const totalTokens = promptTokensDetails.reduce((sum, item) => sum + item.tokenCount, 0);
  return promptTokensDetails.length ? { totalTokens, promptTokensDetails } : { totalTokens };

  async function collectPart(part: Part, field: string): Promise<void> {
    if (part.text !== undefined) texts.push({ text: part.text, scale: 1 });
    if (part.functionCall) texts.push({ text: JSON.stringify(part.functionCall), scale: 1 });
    if (part.functionResponse) {
      const { parts: media, ...response } = part.functionResponse;
      texts.push({ text: JSON.stringify(response), scale: 1 });
      // Media a function returned count as media (their references resolved for the caller).
      for (const [index, item] of (media ?? []).entries())
        await collectPart(item, `${field}.function_response.parts[${index}]`);
    }
    if (part.executableCode) texts.push({ text: part.executableCode.code, scale: 1 });
    if (part.codeExecutionResult?.output)
      texts.push({ text: part.codeExecutionResult.output, scale: 1 });
    if (part.toolCall) texts.push({ text: JSON.stringify(part.toolCall), scale: 1 });
    if (part.toolResponse) texts.push({ text: JSON.stringify(part.toolResponse), scale: 1 });
    if (part.inlineData) {
      const mediaField = `${field}.inline_data`;
      const bytes = Buffer.from(part.inlineData.data, "base64");
      const media = await probeOrFail(
        () => probeMedia({ bytes }, part.inlineData!.mimeType, signal),
        mediaField,
      );
      countMedia(media, part, mediaField);
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
      countMedia(media, part, mediaField);
    }
  }

  function countMedia(media: ProbedMedia, part: Part, field: string): void {
    if (media.kind !== "text") {
      const { modality, tokens } = mediaTokenCount(
        media,
        input.mediaResolution,
        part.videoMetadata,
      );
      add(modality, tokens);
      return;
    }
    if (media.text === undefined) {
      throw ApiError.invalidArgument(`${field}: the text of this file is not available.`, [
        { field, description: "The text file has not been read." },
      ]);
    }
    const keptBytes = Buffer.byteLength(media.text, "utf8");
    const scale = media.textTruncated && keptBytes > 0 ? media.sizeBytes / keptBytes : 1;
    texts.push({ text: media.text, scale });
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
