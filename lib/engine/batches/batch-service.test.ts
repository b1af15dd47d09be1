/**
 * Batch mode of the local engine end to end below HTTP: the real database, the real
 * generation and files, the background runner. A batch is held back by keeping an
 * interactive stream open (interactive work always goes first).
 */
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller, OperationContext } from "@/lib/gemini/backend/contract";
import type { BatchOperation, GenerateContentResponse } from "@/lib/gemini/types";
import { readBatchGenerateContentRequest } from "@/lib/gemini/validate-batch";
import { testDatabaseKinds } from "@/lib/testing/databases";
import { PNG_1X1, streamOf, tempData, TestClock, type TempData } from "@/lib/testing/engine-files";
import { createLocalBackend, type LocalBackend } from "../local-backend";
import { BATCH_LIFETIME_MS } from "./batch-service";

const alice: Caller = { ownerId: "key:alice" };
const bob: Caller = { ownerId: "key:bob" };
const MODEL = "gemini-2.5-flash";
const QUICK = { maxOutputTokens: 8, thinkingConfig: { thinkingBudget: 0 } };

function context(caller: Caller = alice): OperationContext & { origin: string } {
  return { caller, signal: new AbortController().signal, origin: "http://127.0.0.1:3000" };
}

function ask(text: string, extra: Record<string, unknown> = {}) {
  return { contents: [{ role: "user", parts: [{ text }] }], generationConfig: QUICK, ...extra };
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

describe.each(testDatabaseKinds())("batch mode on the local engine ($dialect)", (kind) => {
  let data: TempData;
  let clock: TestClock;
  let backend: LocalBackend;

  function open(): LocalBackend {
    return createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      now: clock.now,
      sweepIntervalMs: 0,
    });
  }

  async function finished(name: string, caller = alice): Promise<BatchOperation> {
    for (let attempt = 0; attempt < 6000; attempt++) {
      const operation = await backend.getBatch(name, context(caller));
      if (operation.done) return operation;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${name} did not finish`);
  }

  async function upload(text: string | Uint8Array, mimeType: string, caller = alice) {
    const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
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

  let releases: (() => Promise<void>)[] = [];

  /** A create as the API surface makes it: the body read at the edge, then the backend. */
  function createBatch(model: string, body: unknown, operation: OperationContext) {
    return backend.createBatch(model, readBatchGenerateContentRequest(body), operation);
  }

  /** Holds an interactive stream open after its first chunk: batch work waits meanwhile. */
  async function holdInteractive(): Promise<() => Promise<void>> {
    const stream = backend
      .streamGenerateContent(
        MODEL,
        ask("Tell me a long story about the sea.", {
          generationConfig: { maxOutputTokens: 4000, thinkingConfig: { thinkingBudget: 0 } },
        }),
        context(),
      )
      [Symbol.asyncIterator]();
    await stream.next();
    const release = async () => {
      await stream.return?.(undefined);
    };
    releases.push(release);
    return release;
  }

  beforeEach(async () => {
    data = await tempData(kind);
    clock = new TestClock(Date.now());
    backend = open();
  });
  afterEach(async () => {
    for (const release of releases) await release();
    releases = [];
    await backend.close();
    await data.cleanup();
  });

  it("runs inline requests and answers the service's operation at each step", async () => {
    const created = await createBatch(
      `models/${MODEL}`,
      {
        batch: {
          display_name: "capitals",
          input_config: {
            requests: {
              requests: [
                { request: ask("What is the capital of France?"), metadata: { key: "france" } },
                { request: ask("What is the capital of Japan?") },
              ],
            },
          },
        },
      },
      context(),
    );
    expect(created.name).toMatch(/^batches\/[a-z0-9]{36}$/);
    expect(created.done).toBeUndefined();
    expect(created.metadata).toMatchObject({
      "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
      model: `models/${MODEL}`,
      displayName: "capitals",
      batchStats: { requestCount: "2", pendingRequestCount: "2" },
      state: "BATCH_STATE_PENDING",
      name: created.name,
    });
    expect(created.metadata.inputConfig).toBeUndefined();

    const done = await finished(created.name);
    expect(done.done).toBe(true);
    expect(done.metadata.state).toBe("BATCH_STATE_SUCCEEDED");
    expect(done.metadata.batchStats).toEqual({ requestCount: "2", successfulRequestCount: "2" });
    expect(done.metadata.endTime).toBeDefined();
    const results = done.response!.inlinedResponses!.inlinedResponses;
    expect(done.response!["@type"]).toMatch(/GenerateContentBatchOutput$/);
    expect(done.metadata.output).toEqual({ inlinedResponses: { inlinedResponses: results } });
    expect(results).toHaveLength(2);
    expect(results[0]!.metadata).toEqual({ key: "france" });
    expect(results[1]!.metadata).toBeUndefined();
    for (const result of results) {
      const response = result.response as GenerateContentResponse;
      expect(response.candidates?.[0]?.content?.parts?.[0]?.text).toBeTruthy();
      expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
      expect(response.modelVersion).toBe(MODEL);
    }
  });

  it("fails only the request that breaks a rule, with its RPC code and the field", async () => {
    const created = await createBatch(
      MODEL,
      {
        batch: {
          inputConfig: {
            requests: {
              requests: [
                { request: ask("Hello") },
                { request: { contents: [{ role: "user", parts: [] }] } },
                { request: ask("Hi", { generationConfig: { temperature: 9 } }) },
              ],
            },
          },
        },
      },
      context(),
    );
    const done = await finished(created.name);
    expect(done.metadata.batchStats).toEqual({
      requestCount: "3",
      successfulRequestCount: "1",
      failedRequestCount: "2",
    });
    const [first, second, third] = done.response!.inlinedResponses!.inlinedResponses;
    expect(first!.response).toBeDefined();
    expect(second!.error?.code).toBe(3);
    expect(second!.error?.message).toContain("contents[0].parts");
    expect(third!.error?.message).toContain("temperature");
  });

  it("refuses a malformed inline request as a whole, naming the field, and stores nothing", async () => {
    const error = await apiError(() =>
      createBatch(
        MODEL,
        {
          batch: {
            inputConfig: {
              requests: { requests: [{ request: { contents: [{ parts: [{ txt: "x" }] }] } }] },
            },
          },
        },
        context(),
      ),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain(
      `Unknown name "txt" at 'batch.input_config.requests.requests[0].request.contents[0].parts[0]'`,
    );
    const empty = await apiError(() =>
      createBatch(MODEL, { batch: { inputConfig: { requests: { requests: [] } } } }, context()),
    );
    expect(empty.message).toContain("batch.input_config.requests.requests");
    const neither = await apiError(() => createBatch(MODEL, { batch: {} }, context()));
    expect(neither.message).toContain("input_config");
    const both = await apiError(() =>
      createBatch(
        MODEL,
        { batch: { inputConfig: { fileName: "files/abc", requests: { requests: [] } } } },
        context(),
      ),
    );
    expect(both.message).toContain("oneof field 'source' is already set");
    const unknownModel = await apiError(() =>
      createBatch(
        "models/no-such-model",
        { batch: { inputConfig: { fileName: "files/abc" } } },
        context(),
      ),
    );
    expect(unknownModel.httpStatus).toBe(404);
    expect(await backend.listBatches({}, context())).toEqual({});
  });

  it("runs a JSONL file into a results file the owner downloads, one line per request in order", async () => {
    const input = [
      JSON.stringify({ key: "one", request: ask("Describe photosynthesis.") }),
      "",
      JSON.stringify(ask("What is in a Margherita pizza?")),
      "{not json",
      JSON.stringify({ key: "bad", request: { contents: [{ parts: [{ text: "x" }] }], bogus: 1 } }),
      JSON.stringify({ key: "empty", request: { contents: [] } }),
    ].join("\n");
    const fileName = await upload(input, "application/jsonl");
    const created = await createBatch(
      MODEL,
      { batch: { displayName: "from a file", inputConfig: { fileName } } },
      context(),
    );
    expect(created.metadata.inputConfig).toEqual({ fileName });
    expect(created.metadata.batchStats).toEqual({ requestCount: "5", pendingRequestCount: "5" });
    // The batch keeps its own copy: deleting the input file does not take the requests away.
    await backend.deleteFile(fileName, context());

    const done = await finished(created.name);
    expect(done.metadata.state).toBe("BATCH_STATE_SUCCEEDED");
    const resultsName = done.response!.responsesFile!;
    expect(resultsName).toBe(`files/batch-${created.name.slice("batches/".length)}`);
    expect(done.metadata.output).toEqual({ responsesFile: resultsName });
    expect(done.metadata.batchStats).toEqual({
      requestCount: "5",
      successfulRequestCount: "2",
      failedRequestCount: "3",
    });

    const file = await backend.getFile(resultsName, context());
    expect(file).toMatchObject({
      source: "GENERATED",
      state: "ACTIVE",
      mimeType: "application/jsonl",
    });
    expect(file.downloadUri).toBe(
      `http://127.0.0.1:3000/download/v1beta/${resultsName}:download?alt=media`,
    );
    const download = await backend.downloadFile(resultsName, context());
    const text = await new Response(download.body).text();
    expect(download.sizeBytes).toBe(Buffer.byteLength(text));
    const lines = text
      .trimEnd()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            key?: string;
            response?: GenerateContentResponse;
            error?: { code: number; message: string };
          },
      );
    expect(lines).toHaveLength(5);
    expect(Object.keys(lines[0]!)).toEqual(["response", "key"]);
    expect(lines[0]!.key).toBe("one");
    expect(lines[1]!.response).toBeDefined();
    expect(lines[1]!.key).toBeUndefined();
    expect(lines[2]!.error?.code).toBe(3);
    expect(lines[2]!.error?.message).toContain("Invalid JSON payload received");
    expect(lines[3]).toMatchObject({ key: "bad", error: { code: 3 } });
    expect(lines[3]!.error?.message).toContain('Unknown name "bogus"');
    expect(lines[4]).toMatchObject({ key: "empty", error: { code: 3 } });

    // Another caller neither sees nor downloads it; an upload cannot be downloaded.
    expect((await apiError(() => backend.downloadFile(resultsName, context(bob)))).httpStatus).toBe(
      403,
    );
    const uploaded = await upload("plain", "text/plain");
    const refused = await apiError(() => backend.downloadFile(uploaded, context()));
    expect(refused.httpStatus).toBe(400);
    expect(refused.message).toContain("Only generated files can be downloaded");
  });

  it("refuses a wrong input file with the service's status, naming the field", async () => {
    const bobs = await upload('{"contents":[{"parts":[{"text":"hi"}]}]}', "application/jsonl", bob);
    const notYours = await apiError(() =>
      createBatch(MODEL, { batch: { inputConfig: { fileName: bobs } } }, context()),
    );
    expect(notYours.httpStatus).toBe(403);
    const missing = await apiError(() =>
      createBatch(MODEL, { batch: { inputConfig: { fileName: "files/nope" } } }, context()),
    );
    expect(missing.httpStatus).toBe(403);
    const image = await upload(PNG_1X1, "image/png");
    const notJsonl = await apiError(() =>
      createBatch(MODEL, { batch: { inputConfig: { fileName: image } } }, context()),
    );
    expect(notJsonl.httpStatus).toBe(400);
    expect(notJsonl.message).toContain("batch.input_config.file_name");
    const blank = await upload("\n  \n", "application/jsonl");
    const noRequests = await apiError(() =>
      createBatch(MODEL, { batch: { inputConfig: { fileName: blank } } }, context()),
    );
    expect(noRequests.message).toContain("holds no requests");
    const badName = await apiError(() =>
      createBatch(MODEL, { batch: { inputConfig: { fileName: "gs://bucket/x" } } }, context()),
    );
    expect(badName.message).toContain("batch.input_config.file_name");
    expect(await backend.listBatches({}, context())).toEqual({});
    expect(fs.readdirSync(`${data.dataDir}/batches`)).toEqual([]);
  });

  it("keeps batches to their owner: get, list, cancel and delete", async () => {
    const created = await createBatch(
      MODEL,
      { batch: { inputConfig: { requests: { requests: [{ request: ask("Hi") }] } } } },
      context(),
    );
    for (const work of [
      () => backend.getBatch(created.name, context(bob)),
      () => backend.cancelBatch(created.name, context(bob)),
      () => backend.deleteBatch(created.name, context(bob)),
      () => backend.getBatch("batches/doesnotexist", context()),
      () => backend.getBatch("batches/NOT-AN-ID", context()),
    ]) {
      const error = await apiError(work);
      expect(error.httpStatus).toBe(404);
      expect(error.rpcStatus).toBe("NOT_FOUND");
    }
    expect(await backend.listBatches({}, context(bob))).toEqual({});
    expect((await backend.listBatches({}, context())).operations?.map((item) => item.name)).toEqual(
      [created.name],
    );
    await finished(created.name);
    await backend.deleteBatch(created.name, context());
    expect((await apiError(() => backend.getBatch(created.name, context()))).httpStatus).toBe(404);
  });

  it("lists newest first in pages, and filters by state (an unknown state is a 400 naming filter)", async () => {
    const release = await holdInteractive();
    const names: string[] = [];
    for (let index = 0; index < 3; index++) {
      clock.advance(1000);
      const created = await createBatch(
        MODEL,
        { batch: { inputConfig: { requests: { requests: [{ request: ask(`Hi ${index}`) }] } } } },
        context(),
      );
      names.push(created.name);
    }
    const first = await backend.listBatches({ pageSize: 2 }, context());
    expect(first.operations!.map((item) => item.name)).toEqual([names[2], names[1]]);
    const second = await backend.listBatches(
      { pageSize: 2, pageToken: first.nextPageToken },
      context(),
    );
    expect(second.operations!.map((item) => item.name)).toEqual([names[0]]);
    expect(second.nextPageToken).toBeUndefined();
    const pending = await backend.listBatches({ filter: "state=BATCH_STATE_PENDING" }, context());
    expect(pending.operations).toHaveLength(3);
    expect(await backend.listBatches({ filter: "state=BATCH_STATE_FAILED" }, context())).toEqual(
      {},
    );
    const unknown = await apiError(() =>
      backend.listBatches({ filter: "state=BATCH_STATE_DONE" }, context()),
    );
    expect(unknown.httpStatus).toBe(400);
    expect(unknown.message).toContain("BATCH_STATE_DONE");
    expect(JSON.stringify(unknown.toBody())).toContain('"field":"filter"');
    await release();
  });

  it("waits while interactive work is in flight, then runs", async () => {
    const release = await holdInteractive();
    const created = await createBatch(
      MODEL,
      { batch: { inputConfig: { requests: { requests: [{ request: ask("Hi") }] } } } },
      context(),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await backend.getBatch(created.name, context())).metadata.batchStats).toEqual({
      requestCount: "1",
      pendingRequestCount: "1",
    });
    await release();
    expect((await finished(created.name)).metadata.state).toBe("BATCH_STATE_SUCCEEDED");
  });

  it("cancels: CANCELLED with the service's error and no results; a finished batch cannot be", async () => {
    const release = await holdInteractive();
    const created = await createBatch(
      MODEL,
      { batch: { inputConfig: { requests: { requests: [{ request: ask("Hi") }] } } } },
      context(),
    );
    await backend.cancelBatch(created.name, context());
    await backend.cancelBatch(created.name, context());
    await release();
    const cancelled = await backend.getBatch(created.name, context());
    expect(cancelled).toMatchObject({
      done: true,
      error: { code: 13, message: "Batch was cancelled." },
      metadata: {
        state: "BATCH_STATE_CANCELLED",
        batchStats: { requestCount: "1", pendingRequestCount: "1" },
      },
    });
    expect(cancelled.response).toBeUndefined();

    const other = await createBatch(
      MODEL,
      { batch: { inputConfig: { requests: { requests: [{ request: ask("Hi") }] } } } },
      context(),
    );
    await finished(other.name);
    const late = await apiError(() => backend.cancelBatch(other.name, context()));
    expect(late.httpStatus).toBe(400);
    expect(late.rpcStatus).toBe("FAILED_PRECONDITION");
  });

  it("expires a batch still unfinished 48 hours after its creation", async () => {
    const release = await holdInteractive();
    const created = await createBatch(
      MODEL,
      { batch: { inputConfig: { requests: { requests: [{ request: ask("Hi") }] } } } },
      context(),
    );
    clock.advance(BATCH_LIFETIME_MS - 1);
    await backend.storage.batches.sweep();
    expect((await backend.getBatch(created.name, context())).metadata.state).toBe(
      "BATCH_STATE_PENDING",
    );
    clock.advance(1);
    await backend.storage.batches.sweep();
    await release();
    const expired = await backend.getBatch(created.name, context());
    expect(expired).toMatchObject({ done: true, metadata: { state: "BATCH_STATE_EXPIRED" } });
    expect(expired.response).toBeUndefined();
  });

  it("resumes a running file batch after a restart, each request answered exactly once", async () => {
    const count = 12;
    const input = Array.from({ length: count }, (_, index) =>
      JSON.stringify({ key: `k${index}`, request: ask(`Question number ${index}?`) }),
    ).join("\n");
    const fileName = await upload(input, "application/jsonl");
    const created = await createBatch(MODEL, { batch: { inputConfig: { fileName } } }, context());
    const id = created.name.slice("batches/".length);
    for (let attempt = 0; attempt < 3000; attempt++) {
      if (((await backend.storage.batches.store.get(id))?.doneCount ?? 0) >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await backend.close();
    const stopped = (await backend.storage.batches.store.get(id))!;
    expect(stopped.state).toBe("BATCH_STATE_RUNNING");
    expect(stopped.doneCount).toBeGreaterThanOrEqual(3);
    expect(stopped.doneCount).toBeLessThan(count);

    backend = open();
    const done = await finished(created.name);
    expect(done.metadata.batchStats).toEqual({
      requestCount: String(count),
      successfulRequestCount: String(count),
    });
    const download = await backend.downloadFile(done.response!.responsesFile!, context());
    const keys = (await new Response(download.body).text())
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { key: string }).key);
    expect(keys).toEqual(Array.from({ length: count }, (_, index) => `k${index}`));
  });
  /** A batch of one request, created and left waiting while the backend is closed. */
  async function waitingBatch(): Promise<{ name: string; id: string }> {
    const release = await holdInteractive();
    const created = await createBatch(
      MODEL,
      { batch: { inputConfig: { requests: { requests: [{ request: ask("Hi") }] } } } },
      context(),
    );
    await release();
    await backend.close();
    return { name: created.name, id: created.name.slice("batches/".length) };
  }

  it("ends FAILED, not run again, a batch that stopped the process twice at the same request", async () => {
    const created = await waitingBatch();
    const { id } = created;
    // Two starts that each died before committing anything (the process killed mid-work).
    const { store } = backend.storage.batches;
    expect(await store.startAttempt(id)).toBe(1);
    expect(await store.startAttempt(id)).toBe(2);

    backend = open();
    const done = await finished(created.name);
    expect(done.metadata.state).toBe("BATCH_STATE_FAILED");
    expect(done.error).toMatchObject({ code: 13 });
    expect(done.error!.message).toMatch(
      /stopped 2 times in a row while running it, at request 1 of 1/,
    );
  });

  it("resumes a batch once after a stop, and a clean shutdown counts as no failed start", async () => {
    const created = await waitingBatch();
    const { id } = created;
    const { store } = backend.storage.batches;
    expect(await store.startAttempt(id)).toBe(1);
    await store.endAttempt(id);
    expect(await store.startAttempt(id)).toBe(1);

    backend = open();
    expect((await finished(created.name)).metadata.state).toBe("BATCH_STATE_SUCCEEDED");
  });
});
