/**
 * A scenario's embedding answer (`respond.embedding`: one vector for every input;
 * `respond.embeddings`: one per input): the engine answers the request first (every check of
 * the model, the inputs and their files, and the usage, as for any answer), then the scripted
 * vectors take the place of its values, in the answer's own shape (embedContent's,
 * batchEmbedContents', or the OpenAI-compatible list, as floats or base64 as asked). A
 * scenario whose vectors do not fit the request (another count of inputs, another size than
 * the request asks) is an error the test sees, naming what differs.
 */
import type {
  BatchEmbedContentsResponse,
  ContentEmbedding,
  EmbedContentResponse,
} from "@/lib/gemini/embedding-types";
import type { OpenAIAnswer } from "@/lib/gemini/backend/contract";
import type { OpenAIEmbeddingsResponse } from "@/lib/gemini/openai/openai-types";
import { base64Floats } from "@/lib/engine/openai/openai-operations";
import type { ScriptedAnswer } from "./scenario-schema";
import { scenarioMisfit } from "./scripted-answer";

/** Values an embedding of the engine's answer holds (floats, or base64 of float32s). */
function sizeOf(embedding: { length: number } | string): number {
  return typeof embedding === "string"
    ? Buffer.byteLength(embedding, "base64") / 4
    : embedding.length;
}

/**
 * The scripted vector for each of the engine's `sizes` (one per input, each the size the
 * request asks), checked against them.
 */
function vectorsFor(answer: ScriptedAnswer, sizes: readonly number[], scenarioId: string) {
  const vectors = answer.embeddings ?? sizes.map(() => answer.embedding!);
  if (vectors.length !== sizes.length)
    throw scenarioMisfit(
      scenarioId,
      `answers ${vectors.length} embedding${vectors.length === 1 ? "" : "s"} to a request of ${sizes.length} input${sizes.length === 1 ? "" : "s"}`,
    );
  vectors.forEach((vector, index) => {
    if (vector.length !== sizes[index])
      throw scenarioMisfit(
        scenarioId,
        `answers ${answer.embeddings ? `embeddings[${index}]` : "an embedding"} of ${vector.length} values, but the request asks ${sizes[index]} (its model's size, or the output dimensionality it names)`,
      );
  });
  return vectors;
}

/** The engine's answer of `method` with the scripted vectors in place of its values. */
export function withScriptedVectors(
  method: string,
  engineAnswer: unknown,
  answer: ScriptedAnswer,
  scenarioId: string,
): unknown {
  if (method === "openaiEmbeddings") {
    const openai = engineAnswer as OpenAIAnswer<OpenAIEmbeddingsResponse>;
    if (!("value" in openai)) return openai;
    const data = openai.value.data;
    const vectors = vectorsFor(
      answer,
      data.map((item) => sizeOf(item.embedding)),
      scenarioId,
    );
    return {
      value: {
        ...openai.value,
        data: data.map((item, index) => ({
          ...item,
          embedding:
            typeof item.embedding === "string"
              ? base64Floats(vectors[index]!)
              : [...vectors[index]!],
        })),
      },
    };
  }
  const replace = (embeddings: readonly ContentEmbedding[]): ContentEmbedding[] => {
    const vectors = vectorsFor(
      answer,
      embeddings.map((embedding) => embedding.values.length),
      scenarioId,
    );
    return embeddings.map((embedding, index) => ({ ...embedding, values: [...vectors[index]!] }));
  };
  if (method === "embedContent") {
    const single = engineAnswer as EmbedContentResponse;
    return { ...single, embedding: replace([single.embedding])[0]! };
  }
  const batch = engineAnswer as BatchEmbedContentsResponse;
  return { ...batch, embeddings: replace(batch.embeddings) };
}
