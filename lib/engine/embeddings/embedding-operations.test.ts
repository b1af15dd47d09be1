/**
 * The local engine's embedding operations below HTTP, with the real database, files, token
 * counting and batch runner: answers shaped as the service's recorded ones
 * (shared/conformance/recorded-exchanges-agents: llm-gemini's and pydantic-ai's embedding
 * tests), the service's errors, and embedding batches run like any batch.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller, OperationContext } from "@/lib/gemini/backend/contract";
import type { EmbedContentResponse } from "@/lib/gemini/embedding-types";
import type { BatchOperation } from "@/lib/gemini/types";
import {
  readAsyncBatchEmbedContentRequest,
  readBatchEmbedContentsRequest,
  readEmbedContentRequest,
} from "@/lib/gemini/validate-embedding";
import { testDatabaseKinds } from "@/lib/testing/databases";
import { PNG_1X1, streamOf, tempData, TestClock, type TempData } from "@/lib/testing/engine-files";
import { createLocalBackend, type LocalBackend } from "../local-backend";

const alice: Caller = { ownerId: "key:alice" };
const bob: Caller = { ownerId: "key:bob" };
const TEXT_MODEL = "models/gemini-embedding-001";
const MULTIMODAL_MODEL = "models/gemini-embedding-2";
const PNG_BASE64 = Buffer.from(PNG_1X1).toString("base64");

function context(caller: Caller = alice): OperationContext & { origin: string } {
  return { caller, signal: new AbortController().signal, origin: "http://127.0.0.1:3000" };
}

/** An answer as its JSON text reads back, with every vector as an array of numbers. */
function asWritten<Answer>(answer: Answer): Answer & { embedding: { values: number[] } } & {
  embeddings: { values: number[] }[];
} {
  return JSON.parse(JSON.stringify(answer)) as Answer & { embedding: { values: number[] } } & {
    embeddings: { values: number[] }[];
  };
}

function norm(values: ArrayLike<number>): number {
  return Math.sqrt(Array.from(values).reduce((sum, value) => sum + value * value, 0));
}

async function apiError(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe.each(testDatabaseKinds())("embeddings on the local engine ($dialect)", (kind) => {
  let data: TempData;
  let backend: LocalBackend;

  beforeEach(async () => {
    data = await tempData(kind);
    backend = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      now: new TestClock(Date.now()).now,
      sweepIntervalMs: 0,
    });
  });
  afterEach(async () => {
    await backend.close();
    await data.cleanup();
  });

  // Answers as a client reads them: the engine's vectors are computed when they are written.
  const embed = async (model: string, body: unknown, caller = alice) =>
    asWritten(await backend.embedContent(model, readEmbedContentRequest(body), context(caller)));
  const batch = async (model: string, body: unknown, caller = alice) =>
    asWritten(
      await backend.batchEmbedContents(model, readBatchEmbedContentsRequest(body), context(caller)),
    );

  async function upload(bytes: Uint8Array, mimeType: string, caller = alice): Promise<string> {
    const { uploadId } = await backend.startUpload(
      { declaredSize: bytes.length, contentType: mimeType, file: {} },
      context(caller),
    );
    const status = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, body: streamOf(bytes) },
      context(caller),
    );
    return status.file!.name;
  }

  it("answers embedContent and batchEmbedContents as the service's recorded answers", async () => {
    const single = await embed(TEXT_MODEL, {
      content: { parts: [{ text: "Some text goes here" }] },
    });
    expect(Object.keys(single)).toEqual(["embedding"]);
    expect(single.embedding.values).toHaveLength(3072);
    expect(norm(single.embedding.values)).toBeCloseTo(1, 5);
    const many = await batch(TEXT_MODEL, {
      requests: [
        { model: TEXT_MODEL, content: { parts: [{ text: "Some text goes here" }] } },
        { model: TEXT_MODEL, content: { parts: [{ text: "Other words entirely" }] } },
      ],
    });
    expect(Object.keys(many)).toEqual(["embeddings"]);
    expect(many.embeddings[0]!.values).toEqual(single.embedding.values);
    // gemini-embedding-2 answers carry the usage: no role token ("Some text goes here" is 4).
    const counted = await batch(MULTIMODAL_MODEL, {
      requests: [
        { model: MULTIMODAL_MODEL, content: { parts: [{ text: "First text" }] } },
        { model: MULTIMODAL_MODEL, content: { parts: [{ text: "Second text" }] } },
      ],
    });
    expect(counted.usageMetadata).toEqual({
      promptTokenCount: 4,
      promptTokenDetails: [{ modality: "TEXT", tokenCount: 4 }],
    });
  });

  it("shortens vectors as each model does", async () => {
    const body = (outputDimensionality?: number) => ({
      content: { parts: [{ text: "Some text goes here" }] },
      ...(outputDimensionality ? { outputDimensionality } : {}),
    });
    const full = (await embed(TEXT_MODEL, body())).embedding.values;
    const short = (await embed(TEXT_MODEL, body(768))).embedding.values;
    expect(short).toEqual(full.slice(0, 768));
    const renormalised = (await embed(MULTIMODAL_MODEL, body(128))).embedding.values;
    expect(renormalised).toHaveLength(128);
    expect(norm(renormalised)).toBeCloseTo(1, 5);
  });

  it("refuses what the service refuses, naming the field", async () => {
    const tooLong = await apiError(() =>
      embed(TEXT_MODEL, { content: { parts: [{ text: "x" }] }, outputDimensionality: 4000 }),
    );
    expect(tooLong.httpStatus).toBe(400);
    expect(tooLong.message).toContain("EmbedContentRequest.output_dimensionality");
    const negative = await apiError(() =>
      batch(TEXT_MODEL, {
        requests: [{ content: { parts: [{ text: "x" }] }, outputDimensionality: -1 }],
      }),
    );
    expect(negative.message).toContain(
      "BatchEmbedContentsRequest.requests[0].output_dimensionality",
    );
    const images = Array.from({ length: 7 }, () => ({
      inline_data: { mime_type: "image/png", data: PNG_BASE64 },
    }));
    const sevenImages = await apiError(() =>
      batch(MULTIMODAL_MODEL, { requests: [{ content: { parts: images } }] }),
    );
    expect(sevenImages.message).toBe(
      "Unable to submit request because the model supports at most 6 image parts per input instance, but 7 were provided. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api",
    );
    const textOnly = await apiError(() =>
      embed(TEXT_MODEL, {
        content: { parts: [{ inlineData: { mimeType: "image/png", data: PNG_BASE64 } }] },
      }),
    );
    expect(textOnly.message).toContain("content.parts[0].inline_data");
    const unknown = await apiError(() =>
      batch("models/nonexistent-model", { requests: [{ content: { parts: [{ text: "x" }] } }] }),
    );
    expect(unknown.httpStatus).toBe(404);
    expect(unknown.message).toBe(
      "models/nonexistent-model is not found for API version v1beta, or is not supported for embedContent. Call ModelService.ListModels to see the list of available models and their supported methods.",
    );
    const generator = await apiError(() =>
      embed("models/gemini-2.5-flash", { content: { parts: [{ text: "x" }] } }),
    );
    expect(generator.httpStatus).toBe(404);
    const empty = await apiError(() => batch(TEXT_MODEL, { requests: [] }));
    expect(empty.message).toContain("BatchEmbedContentsRequest.requests");
    const tooMany = await apiError(() =>
      batch(TEXT_MODEL, {
        requests: Array.from({ length: 101 }, () => ({ content: { parts: [{ text: "x" }] } })),
      }),
    );
    expect(tooMany.message).toContain("at most 100 requests");
  });

  it("embeds media and files on multimodal models, counting them as the service does", async () => {
    const picture = await embed(MULTIMODAL_MODEL, {
      content: { parts: [{ inline_data: { mime_type: "image/png", data: PNG_BASE64 } }] },
    });
    expect(picture.usageMetadata).toEqual({
      promptTokenCount: 258,
      promptTokenDetails: [{ modality: "IMAGE", tokenCount: 258 }],
    });
    const file = await upload(PNG_1X1, "image/png");
    const byFile = await embed(MULTIMODAL_MODEL, {
      content: { parts: [{ file_data: { file_uri: file, mime_type: "image/png" } }] },
    });
    expect(byFile.embedding.values).toHaveLength(3072);
    const text = await upload(new TextEncoder().encode("rivers and valleys"), "text/plain");
    const byText = await embed(TEXT_MODEL, {
      content: { parts: [{ fileData: { fileUri: text } }] },
    });
    const same = await embed(TEXT_MODEL, { content: { parts: [{ text: "rivers and valleys" }] } });
    expect(byText.embedding.values).toEqual(same.embedding.values);
    const other = await apiError(() =>
      embed(MULTIMODAL_MODEL, { content: { parts: [{ fileData: { fileUri: file } }] } }, bob),
    );
    expect(other.httpStatus).toBe(403);
  });

  it("counts tokens on an embedding model as the service does", async () => {
    const counted = await backend.countTokens(
      "models/gemini-embedding-2-preview",
      { contents: [{ role: "user", parts: [{ text: "Hello, world!" }] }] },
      context(),
    );
    expect(counted.totalTokens).toBe(5);
  });

  it("runs an embedding batch like any batch, its results as the service's", async () => {
    const created = await backend.asyncBatchEmbedContent(
      MULTIMODAL_MODEL,
      readAsyncBatchEmbedContentRequest({
        batch: {
          display_name: "vectors",
          input_config: {
            requests: {
              requests: [
                { request: { content: { parts: [{ text: "one" }] }, outputDimensionality: 8 } },
                { request: { content: { parts: [{ text: "two" }] } }, metadata: { key: "b" } },
                { request: { content: { parts: [{ text: "x" }] }, outputDimensionality: 99999 } },
              ],
            },
          },
        },
      }),
      context(),
    );
    expect(created.metadata["@type"]).toBe(
      "type.googleapis.com/google.ai.generativelanguage.v1main.EmbedContentBatch",
    );
    let done: BatchOperation | undefined;
    for (let attempt = 0; attempt < 3000 && !done?.done; attempt++) {
      done = await backend.getBatch(created.name, context());
      if (!done.done) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(done!.metadata.state).toBe("BATCH_STATE_SUCCEEDED");
    const results = done!.metadata.output!.inlinedResponses!.inlinedResponses;
    const first = results[0]!.response as EmbedContentResponse;
    expect(first.embedding.values).toHaveLength(8);
    expect(first.usageMetadata).toEqual({ promptTokenCount: 1 });
    expect(results[1]!.metadata).toEqual({ key: "b" });
    expect(results[2]!.error?.code).toBe(3);
    expect(done!.metadata.batchStats).toEqual({
      requestCount: "3",
      successfulRequestCount: "2",
      failedRequestCount: "1",
    });
    expect(await apiError(() => backend.getBatch(created.name, context(bob)))).toMatchObject({
      httpStatus: 404,
    });
  });

  it("runs an embedding batch from a JSONL file into a results file", async () => {
    const lines = [
      JSON.stringify({ key: "a", request: { content: { parts: [{ text: "alpha" }] } } }),
      JSON.stringify({ content: { parts: [{ text: "beta" }] } }),
      "not json",
    ].join("\n");
    const input = await upload(new TextEncoder().encode(lines), "application/jsonl");
    const created = await backend.asyncBatchEmbedContent(
      TEXT_MODEL,
      readAsyncBatchEmbedContentRequest({ batch: { inputConfig: { fileName: input } } }),
      context(),
    );
    let done: BatchOperation | undefined;
    for (let attempt = 0; attempt < 3000 && !done?.done; attempt++) {
      done = await backend.getBatch(created.name, context());
      if (!done.done) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const results = done!.response!.responsesFile!;
    const download = await backend.downloadFile(results, context());
    const text = await new Response(download.body).text();
    const parsed = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(parsed[0].key).toBe("a");
    expect(parsed[0].response.embedding.values).toHaveLength(3072);
    expect(parsed[1].response.embedding.values).toHaveLength(3072);
    expect(parsed[2].error.code).toBe(3);
  });
});
