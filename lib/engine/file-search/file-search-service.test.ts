import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalBackend, type LocalBackend } from "@/lib/engine/local-backend";
import type { OriginOperationContext } from "@/lib/gemini/backend/contract";
import type { GenerateContentResponse } from "@/lib/gemini/types";
import { readBatchGenerateContentRequest } from "@/lib/gemini/validate-batch";
import { parseCachedContentCreate } from "@/lib/gemini/validate-caches";
import { readCountTokensRequest, readGenerateContentRequest } from "@/lib/gemini/validate";
import { testDatabaseKinds } from "@/lib/testing/databases";
import { streamOf, type TempData } from "@/lib/testing/engine-files";

const TEXT =
  "The secret project codename is Chimera. It was started in 2024 and involves distributed caching.";
const MODEL = "gemini-2.5-flash";
const STORE_DENIED = {
  httpStatus: 403,
  rpcStatus: "PERMISSION_DENIED",
  message: "FileSearchStore not found (or permission denied)",
};

function as(ownerId: string): OriginOperationContext {
  return { caller: { ownerId }, signal: new AbortController().signal, origin: "http://studio" };
}

const alice = as("key:alice");
const bob = as("key:bob");

describe.each(testDatabaseKinds())("file search stores on the local engine ($dialect)", (kind) => {
  let data: TempData;
  let backend: LocalBackend;
  let store: string;
  let documentName: string;

  beforeAll(async () => {
    data = await kind.open();
    backend = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
    });
  });

  afterAll(async () => {
    await backend.close();
    await data.cleanup();
  });

  it("creates a store named after its display name, with no documents yet", async () => {
    const created = await backend.createFileSearchStore({ displayName: "genai-test-store" }, alice);
    expect(created.name).toMatch(/^fileSearchStores\/genaiteststore-[a-z0-9]{12}$/);
    expect(created).not.toHaveProperty("activeDocumentsCount");
    expect(created.embeddingModel).toBe("models/gemini-embedding-001");
    store = created.name;
  });

  it("uploads a document by the resumable protocol and answers its operation", async () => {
    const { uploadId } = await backend.startFileSearchStoreUpload(
      store,
      { contentType: "text/plain", document: { displayName: "test-doc.txt" } },
      alice,
    );
    const bytes = new TextEncoder().encode(TEXT);
    const status = await backend.uploadChunk(
      uploadId,
      { upload: true, finalize: true, offset: 0, body: streamOf(bytes) },
      alice,
    );
    expect(status.status).toBe("final");
    expect(status.file).toBeUndefined();
    const operation = status.operation!;
    expect(operation.name).toMatch(
      new RegExp(`^${store}/upload/operations/testdoctxt-[a-z0-9]{12}$`),
    );
    expect(operation.response).toMatchObject({
      parent: store,
      mimeType: "text/plain",
      sizeBytes: "96",
    });
    documentName = operation.response!.documentName;
    expect(await backend.getFileSearchOperation(operation.name, alice)).toMatchObject({
      done: true,
      response: { documentName },
    });
    // The bytes became the document: no file is left behind.
    expect((await backend.listFiles({}, alice)).files).toBeUndefined();
  });

  it("counts the document in its store and lists it", async () => {
    expect(await backend.getFileSearchStore(store, alice)).toMatchObject({
      activeDocumentsCount: "1",
      sizeBytes: "96",
    });
    const listed = await backend.listDocuments(store, {}, alice);
    expect(listed.documents).toEqual([
      expect.objectContaining({
        name: documentName,
        state: "STATE_ACTIVE",
        mimeType: "text/plain",
      }),
    ]);
    expect((await backend.listFileSearchStores({}, alice)).fileSearchStores).toHaveLength(1);
  });

  it("answers a fileSearch generation grounded in the document, with the tool's tokens", async () => {
    const request = readGenerateContentRequest({
      contents: [{ role: "user", parts: [{ text: "What is the secret project codename?" }] }],
      tools: [{ fileSearch: { fileSearchStoreNames: [store] } }],
    });
    const answer = (await backend.generateContent(
      MODEL,
      request,
      alice,
    )) as GenerateContentResponse;
    const candidate = answer.candidates![0]!;
    expect(candidate.content!.parts!.at(-1)!.text).toBe("The secret project codename is Chimera.");
    expect(candidate.groundingMetadata).toEqual({
      groundingChunks: [
        { retrievedContext: { title: "test-doc.txt", text: `${TEXT}\n`, fileSearchStore: store } },
      ],
      groundingSupports: [
        {
          segment: { endIndex: 39, text: "The secret project codename is Chimera." },
          groundingChunkIndices: [0],
        },
      ],
    });
    const usage = answer.usageMetadata!;
    expect(usage.toolUsePromptTokenCount).toBeGreaterThan(15);
    expect(usage.toolUsePromptTokensDetails).toEqual([
      { modality: "TEXT", tokenCount: usage.toolUsePromptTokenCount },
    ]);
    expect(usage.totalTokenCount).toBe(
      usage.promptTokenCount! +
        usage.toolUsePromptTokenCount! +
        (usage.candidatesTokenCount ?? 0) +
        (usage.thoughtsTokenCount ?? 0),
    );
  });

  it("refuses another owner's store in every operation that reads or names it", async () => {
    const tools = [{ fileSearch: { fileSearchStoreNames: [store] } }];
    const contents = [{ role: "user", parts: [{ text: "What is the codename?" }] }];
    // Each is called only when awaited: an eager rejection would go unhandled meanwhile.
    const refusals: (() => Promise<unknown>)[] = [
      () => backend.getFileSearchStore(store, bob),
      () => backend.deleteFileSearchStore(store, true, bob),
      () => backend.listDocuments(store, {}, bob),
      () => backend.getDocument(documentName, bob),
      () => backend.deleteDocument(documentName, true, bob),
      () => backend.startFileSearchStoreUpload(store, { document: {} }, bob),
      () => backend.importFileToFileSearchStore(store, { fileName: "files/x" }, bob),
      () => backend.generateContent(MODEL, readGenerateContentRequest({ contents, tools }), bob),
      () =>
        backend.countTokens(
          MODEL,
          readCountTokensRequest({
            generateContentRequest: { model: `models/${MODEL}`, contents, tools },
          }),
          bob,
        ),
      () =>
        backend.createCachedContent(
          parseCachedContentCreate({ model: `models/${MODEL}`, contents, tools }),
          bob,
        ),
      () =>
        backend.createBatch(
          MODEL,
          readBatchGenerateContentRequest({
            batch: { inputConfig: { requests: { requests: [{ request: { contents, tools } }] } } },
          }),
          bob,
        ),
    ];
    for (const [index, refusal] of refusals.entries())
      await expect(refusal(), `refusal ${index}`).rejects.toMatchObject(STORE_DENIED);
    expect((await backend.listFileSearchStores({}, bob)).fileSearchStores).toBeUndefined();
  });

  it("imports one of the owner's files as a document", async () => {
    const { uploadId } = await backend.startUpload(
      { declaredSize: 11, contentType: "text/plain", file: { displayName: "notes.txt" } },
      alice,
    );
    const { file } = await backend.uploadChunk(
      uploadId,
      {
        upload: true,
        finalize: true,
        offset: 0,
        body: streamOf(new TextEncoder().encode("hello notes")),
      },
      alice,
    );
    const operation = await backend.importFileToFileSearchStore(
      store,
      { fileName: file!.name },
      alice,
    );
    expect(operation).toMatchObject({ done: true, response: { parent: store } });
    expect(operation.name).toMatch(new RegExp(`^${store}/operations/notestxt-`));
    await expect(
      backend.importFileToFileSearchStore(store, { fileName: file!.name }, bob),
    ).rejects.toMatchObject(STORE_DENIED);
  });

  it("keeps nothing of an upload whose store was deleted before its last chunk", async () => {
    const doomed = await backend.createFileSearchStore({ displayName: "doomed" }, alice);
    const { uploadId } = await backend.startFileSearchStoreUpload(
      doomed.name,
      { contentType: "text/plain", document: { displayName: "late.txt" } },
      alice,
    );
    await backend.deleteFileSearchStore(doomed.name, true, alice);
    await expect(
      backend.uploadChunk(
        uploadId,
        {
          upload: true,
          finalize: true,
          offset: 0,
          body: streamOf(new TextEncoder().encode("late")),
        },
        alice,
      ),
    ).rejects.toMatchObject(STORE_DENIED);
    const files = (await backend.listFiles({}, alice)).files ?? [];
    expect(files.map((file) => file.displayName)).not.toContain("late.txt");
  });

  it("keeps a store with documents unless forced, and deletes documents and stores", async () => {
    await expect(backend.deleteFileSearchStore(store, false, alice)).rejects.toMatchObject({
      httpStatus: 400,
      rpcStatus: "FAILED_PRECONDITION",
    });
    await backend.deleteDocument(documentName, true, alice);
    await expect(backend.getDocument(documentName, alice)).rejects.toMatchObject({
      httpStatus: 404,
    });
    await backend.deleteFileSearchStore(store, true, alice);
    await expect(backend.getFileSearchStore(store, alice)).rejects.toMatchObject(STORE_DENIED);
  });
});
