/**
 * One input's vector (vectors.ts) from everything it holds: its text parts' features
 * (text-features.ts), each medium as its kind and its own bytes (the same picture twice is the
 * same feature; any two pictures share "picture"), and, on models that read them, the task
 * type (a small pull of its own, so a query and a document of one text stay near each other)
 * and a document's title (its words at half weight).
 */
import { hashString } from "@/lib/gemini/hash-string";
import type { EmbeddingTaskType, EmbeddingTraits } from "@/lib/gemini/embedding-types";
import { DeferredEmbeddingValues, EmbeddingValues } from "@/lib/gemini/embedding-values";
import { textFeatures } from "./text-features";
import { BLOCK, FeatureVector, project, projectedLength, type ProjectionOptions } from "./vectors";

export type EmbedModality = "IMAGE" | "AUDIO" | "VIDEO" | "DOCUMENT";

/** A part as the vector reads it: text, or a medium known by its kind and an identity of its bytes. */
export type EmbedPart = { text: string } | { modality: EmbedModality; identity: string };

export interface EmbedInput {
  parts: readonly EmbedPart[];
  taskType?: EmbeddingTaskType;
  title?: string;
  outputDimensionality?: number;
}

const MODALITY_SEED = 0x3c6ef372;
const MEDIUM_SEED = 0xa54ff53a;
const TASK_SEED = 0x510e527f;
/** A medium's own bytes weigh as a word; its kind less. */
const MEDIUM_WEIGHT = 1;
const MODALITY_WEIGHT = 0.5;
/** The task type's share of the vector's length. */
const TASK_SHARE = 0.2;
const TITLE_SCALE = 0.5;

const hashedSpace = new Float64Array(BLOCK);

/** The vector of `input` under `model`'s map and traits. */
export function embedInput(
  input: EmbedInput,
  model: string,
  traits: EmbeddingTraits,
): EmbeddingValues {
  return deferredEmbedding(input, model, traits).values();
}

/**
 * The vector of `input` under `model`'s map and traits, computed when it is written (its
 * values are embedInput's).
 */
export function deferredEmbedding(
  input: EmbedInput,
  model: string,
  traits: EmbeddingTraits,
): DeferredEmbeddingValues {
  const projection: ProjectionOptions = {
    model,
    dimensions: traits.dimensions,
    ...(input.outputDimensionality !== undefined
      ? { outputDimensionality: input.outputDimensionality }
      : {}),
    renormalizesTruncated: traits.renormalizesTruncated,
  };
  return new DeferredEmbeddingValues(projectedLength(projection), (target) =>
    project(hashedFeatures(input, model, traits), projection, target),
  );
}

/** The features of everything `input` holds, summed into the shared hashed space. */
function hashedFeatures(input: EmbedInput, model: string, traits: EmbeddingTraits): FeatureVector {
  // One input is embedded start to end without a pause, so one buffer serves every input.
  const features = new FeatureVector(model, hashedSpace.fill(0));
  for (const part of input.parts) {
    if ("text" in part) textFeatures(part.text, features.add);
    else {
      features.add(hashString(part.modality, MODALITY_SEED), MODALITY_WEIGHT);
      features.add(hashString(part.identity, MEDIUM_SEED), MEDIUM_WEIGHT);
    }
  }
  const task = input.taskType;
  if (traits.readsTaskType && task && task !== "TASK_TYPE_UNSPECIFIED") {
    if (task === "RETRIEVAL_DOCUMENT" && input.title)
      textFeatures(input.title, features.add, TITLE_SCALE);
    features.add(hashString(task, TASK_SEED), TASK_SHARE * features.norm());
  }
  return features;
}
