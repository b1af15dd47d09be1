/**
 * The local engine's embedContent and batchEmbedContents: the model from the catalog (the
 * service's 404 naming embedContent for one that embeds nothing), its rules
 * (lib/gemini/validate-embedding), each input's parts read as the vector needs them (files
 * resolved for the caller, text files and text/* data as their text, other media by their
 * bytes), one vector per input (embed-input.ts, computed when the answer is written), and, on
 * models whose answers carry it, the
 * usage: the inputs' tokens counted as a prompt of the model's family without role tokens
 * (recorded: "hello" 1, an image 258). Long batches yield between inputs.
 */
import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import type {
  ContentEmbedding,
  EmbedContentRequest,
  EmbeddingTraits,
  EmbeddingUsageMetadata,
} from "@/lib/gemini/embedding-types";
import type { ModalityTokenCount, Part } from "@/lib/gemini/types";
import { checkEmbedRequestsSteps, partModality } from "@/lib/gemini/validate-embedding";
import { requireModel, type CatalogEntry } from "../catalog";
import type { FileService } from "../files/file-service";
import { countRequestTokens } from "../tokens";
import { runInSlices, TimeSlices } from "@/lib/runtime/time-slices";
import { deferredEmbedding, type EmbedModality, type EmbedPart } from "./embed-input";

export interface EmbeddingModel {
  entry: CatalogEntry;
  traits: EmbeddingTraits;
}

/** The embedding model a path names, or the service's 404 for one that embeds nothing. */
export function requireEmbeddingModel(model: string, method = "embedContent"): EmbeddingModel {
  const entry = requireModel(model, method);
  if (!entry.embedding)
    throw new Error(`catalog: ${entry.traits.name} serves ${method} without embedding traits`);
  return { entry, traits: entry.embedding };
}

export interface EmbedOptions {
  caller: Caller;
  signal: AbortSignal;
  files: Pick<FileService, "resolveFileForCaller">;
}

export interface EmbedAnswer {
  embeddings: ContentEmbedding[];
  /** The inputs' tokens together (on models whose answers carry usage). */
  usageMetadata?: EmbeddingUsageMetadata;
}

/**
 * Embeds each request with `model` for the caller: one vector per request, in order, and the
 * usage of them all. `requestName` names the body in refusals (`EmbedContentRequest` for one
 * input, `BatchEmbedContentsRequest` for a batch's).
 */
export async function embedRequests(
  model: string,
  requests: readonly EmbedContentRequest[],
  requestName: "EmbedContentRequest" | "BatchEmbedContentsRequest",
  options: EmbedOptions,
): Promise<EmbedAnswer> {
  const { entry, traits } = requireEmbeddingModel(model);
  const name = entry.traits.name;
  await runInSlices(checkEmbedRequestsSteps(requests, name, traits, requestName));
  const slices = new TimeSlices();
  const embeddings: ContentEmbedding[] = [];
  for (let index = 0; index < requests.length; index++) {
    const request = requests[index]!;
    const base = requestName === "BatchEmbedContentsRequest" ? `requests[${index}].` : "";
    const parts = await embedParts(request.content.parts, traits, options, {
      requestName,
      path: `${base}content`,
      model: name,
    });
    const values = deferredEmbedding(
      {
        parts,
        ...(request.taskType ? { taskType: request.taskType } : {}),
        ...(request.title !== undefined ? { title: request.title } : {}),
        ...(request.outputDimensionality !== undefined
          ? { outputDimensionality: request.outputDimensionality }
          : {}),
      },
      name,
      traits,
    );
    embeddings.push({ values });
    if (slices.due()) await slices.pause();
    options.signal.throwIfAborted();
  }
  if (!traits.usage) return { embeddings };
  return { embeddings, usageMetadata: await embeddingUsage(entry, requests, options) };
}

/** The inputs' tokens, as a prompt of the model's family with no role token. */
export async function embeddingUsage(
  entry: CatalogEntry,
  requests: readonly EmbedContentRequest[],
  options: EmbedOptions,
): Promise<EmbeddingUsageMetadata> {
  const counted = await countRequestTokens(
    { ...entry.traits, roleTokenPerContent: false },
    { contents: requests.map((request) => request.content) },
    {
      resolveFile: (fileUri) =>
        options.files.resolveFileForCaller(fileUri, options.caller, options.signal),
      signal: options.signal,
    },
  );
  const details: ModalityTokenCount[] = counted.promptTokensDetails ?? [];
  return {
    promptTokenCount: counted.totalTokens,
    ...(details.length ? { promptTokenDetails: details } : {}),
  };
}

const KIND_MODALITY: Record<string, EmbedModality> = {
  image: "IMAGE",
  audio: "AUDIO",
  video: "VIDEO",
  document: "DOCUMENT",
};

/** Each part as the vector reads it; a file's kind is checked against the model once known. */
async function embedParts(
  parts: readonly Part[],
  traits: EmbeddingTraits,
  options: EmbedOptions,
  where: { requestName: string; path: string; model: string },
): Promise<EmbedPart[]> {
  const { requestName, path, model } = where;
  const read: EmbedPart[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.text !== undefined) read.push({ text: part.text });
    else if (part.inlineData) {
      const modality = partModality(part);
      read.push(
        modality === "TEXT"
          ? { text: Buffer.from(part.inlineData.data, "base64").toString("utf8") }
          : { modality, identity: part.inlineData.data },
      );
    } else if (part.fileData) {
      const file = await options.files.resolveFileForCaller(
        part.fileData.fileUri,
        options.caller,
        options.signal,
      );
      if ("remote" in file) {
        const modality = partModality(part);
        read.push(modality === "TEXT" ? { text: file.uri } : { modality, identity: file.uri });
        continue;
      }
      if (file.probed.kind === "text") {
        read.push({ text: file.probed.text ?? "" });
        continue;
      }
      const modality = KIND_MODALITY[file.probed.kind]!;
      if (!traits.media.includes(modality))
        throw ApiError.invalidArgument(
          `* ${requestName}.${path}.parts[${index}].file_data: ${model} does not embed ${modality.toLowerCase()} (${file.mimeType}).`,
          [
            {
              field: `${path}.parts[${index}].file_data`,
              description: `${model} does not embed ${modality.toLowerCase()}`,
            },
          ],
        );
      read.push({ modality, identity: `${file.path}:${file.sizeBytes}` });
    }
  }
  return read;
}
