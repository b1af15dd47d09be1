/**
 * A batch's input file through the gateway: its lines are read as it is uploaded (however
 * its chunks cut them, on whichever instance), and a batch runs from it only when every
 * resource its lines name is the caller's, checked as a direct request would be.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestUpstream, type TestUpstream } from "@/e2e/support/test-upstream";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import type { UpstreamSettings } from "../config/env";
import type { UpstreamBackend } from "./upstream-backend";

let upstream: TestUpstream;
let data: TempData;
let settings: UpstreamSettings;
let backend: UpstreamBackend;
const alice = {
  caller: { ownerId: "key:alice" },
  signal: new AbortController().signal,
  origin: "http://studio.test",
};

beforeAll(async () => {
  upstream = await startTestUpstream();
  data = await tempData();
  settings = testUpstreamSettings(upstream.url);
  backend = testUpstreamBackend(data.stores, settings);
  await data.stores.ownership.record("file", "files/alicefile", "key:alice");
  await data.stores.ownership.record("file", "files/bobfile", "key:bob");
  await data.stores.ownership.record("cachedContent", "cachedContents/bobcache", "key:bob");
});

afterAll(async () => {
  await backend.client.close();
  await upstream.close();
  await data.cleanup();
});

const line = (request: unknown, key = "k") => JSON.stringify({ key, request });
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  contents: [{ role: "user", parts: [{ text }] }],
  ...extra,
});

/** Streams `pieces` as one chunk's body. */
function bodyOf(pieces: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
      controller.close();
    },
  });
}

/** Uploads `text` resumably in chunks cut at `cuts` (each chunk possibly by another instance). */
async function upload(
  text: string,
  options: { cuts?: number[]; contentType?: string; backends?: UpstreamBackend[] } = {},
): Promise<string> {
  const bytes = Buffer.from(text);
  const backends = options.backends ?? [backend];
  const { uploadId } = await backends[0]!.startUpload(
    {
      declaredSize: bytes.length,
      contentType: options.contentType ?? "application/jsonl",
      file: {},
    },
    alice,
  );
  const points = [0, ...(options.cuts ?? []), bytes.length];
  let answer;
  for (let index = 0; index + 1 < points.length; index++) {
    const piece = bytes.subarray(points[index], points[index + 1]).toString("latin1");
    // Each chunk arrives in pieces too.
    const halves = [piece.slice(0, piece.length >> 1), piece.slice(piece.length >> 1)];
    answer = await backends[index % backends.length]!.uploadChunk(
      uploadId,
      {
        upload: true,
        finalize: index + 2 === points.length,
        offset: points[index],
        body: new ReadableStream({
          start(controller) {
            for (const half of halves) controller.enqueue(Buffer.from(half, "latin1"));
            controller.close();
          },
        }),
      },
      alice,
    );
  }
  return answer!.file!.name;
}

async function batchFrom(fileName: string) {
  return backend.createBatch("models/ok-batch", { batch: { inputConfig: { fileName } } }, alice);
}

describe("a batch's input file", () => {
  it("runs when its lines name only the caller's own resources, in any place", async () => {
    const file = await upload(
      [
        line(ask("Tell me about files/bobfile, as text.")),
        line({
          contents: [
            { parts: [{ fileData: { fileUri: "http://studio.test/v1beta/files/alicefile" } }] },
          ],
        }),
        line(
          ask("Read http://studio.test/v1beta/files/alicefile", { tools: [{ urlContext: {} }] }),
        ),
        "",
        JSON.stringify(ask("a bare request")),
      ].join("\n"),
      { cuts: [30, 31, 200] },
    );
    const before = upstream.requestsFor(":batchGenerateContent").length;
    const batch = await batchFrom(file);
    expect(batch.name).toMatch(/^batches\//);
    expect(upstream.requestsFor(":batchGenerateContent")).toHaveLength(before + 1);
  });

  const refusals: [string, string, object][] = [
    [
      "another's file in a line's fileData",
      line({ contents: [{ parts: [{ file_data: { file_uri: "files/bobfile" } }] }] }),
      { httpStatus: 403, message: expect.stringContaining("File bobfile") },
    ],
    [
      "another's cache in an unknown field",
      line({ ...ask("hi"), futureContext: { cache: "cachedContents/bobcache" } }),
      { httpStatus: 403, message: "CachedContent not found (or permission denied)" },
    ],
    [
      "another's file in a URL URL context may read",
      line(ask("Read https://x.test/v1beta/files/bobfile", { tools: [{ url_context: {} }] })),
      { httpStatus: 403, message: expect.stringContaining("File bobfile") },
    ],
    [
      "another's file in a line the schemas cannot read",
      line({ contents: "not contents", uri: "files/bobfile" }),
      { httpStatus: 403, message: expect.stringContaining("File bobfile") },
    ],
    [
      "an operation in a line that is not JSON",
      `{"contents": [ operations/op1`,
      { httpStatus: 404, rpcStatus: "NOT_FOUND" },
    ],
  ];
  for (const [label, text, refusal] of refusals)
    it(`is refused for ${label}, however its chunks cut it`, async () => {
      const body = [line(ask("first")), text, line(ask("last"))].join("\r\n");
      const at = body.indexOf("files/bobfile") + 8;
      for (const cuts of [[], [at], [at - 3, at, at + 2]]) {
        const file = await upload(body, { cuts: cuts.filter((cut) => cut > 0) });
        const before = upstream.requestsFor(":batchGenerateContent").length;
        await expect(batchFrom(file), JSON.stringify(cuts)).rejects.toMatchObject(refusal);
        expect(upstream.requestsFor(":batchGenerateContent")).toHaveLength(before);
      }
    });

  it("is read across instances, the reading kept with the session", async () => {
    const other = testUpstreamBackend(data.stores, settings);
    const body = [line(ask("first")), line(ask("x", { futureRef: "files/bobfile" }))].join("\n");
    const at = body.indexOf("files/bobfile") + 4;
    const file = await upload(body, { cuts: [at], backends: [backend, other] });
    await expect(batchFrom(file)).rejects.toMatchObject({ httpStatus: 403 });
    const clean = await upload(body.replace("bobfile", "alicefile"), {
      cuts: [at],
      backends: [backend, other],
    });
    expect((await batchFrom(clean)).name).toMatch(/^batches\//);
    await other.client.close();
  });

  it("a multipart upload is read as well", async () => {
    const bytes = [
      line(ask("x")),
      line({ contents: [{ parts: [{ fileData: { fileUri: "files/bobfile" } }] }] }),
    ];
    const file = await backend.uploadFile(
      {
        file: { mimeType: "application/jsonl" },
        contentType: "application/jsonl",
        body: bodyOf(bytes),
      },
      alice,
    );
    await expect(batchFrom(file.name!)).rejects.toMatchObject({ httpStatus: 403 });
  });

  it("a file the gateway did not read runs no batch, and says why", async () => {
    const image = await upload(line(ask("hi")), { contentType: "image/png" });
    await expect(batchFrom(image)).rejects.toMatchObject({
      httpStatus: 400,
      rpcStatus: "INVALID_ARGUMENT",
      message: expect.stringContaining("batch.input_config.file_name"),
    });
    await expect(batchFrom("files/bobfile")).rejects.toMatchObject({ httpStatus: 403 });
  });
});
