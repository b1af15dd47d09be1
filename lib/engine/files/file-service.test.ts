import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { MediaProbeError, probeMedia } from "../media/probe";
import { FileService, fileIdFrom, toWireFile } from "./file-service";
import { FILE_LIFETIME_MS } from "./upload-sessions";
import { testDatabaseKinds } from "@/lib/testing/databases";
import {
  PNG_1X1,
  streamOf,
  tempData,
  TestClock,
  wavBytes,
  type TempData,
} from "@/lib/testing/engine-files";

const alice = { ownerId: "key:alice" };
const bob = { ownerId: "key:bob" };
const ORIGIN = "http://127.0.0.1:3000";

async function catchApiError(work: () => unknown): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe.each(testDatabaseKinds())("files: lifecycle, access and expiry ($dialect)", (kind) => {
  let data: TempData;
  let clock: TestClock;
  let files: FileService;

  function create(extra: Partial<ConstructorParameters<typeof FileService>[0]> = {}): FileService {
    return new FileService({
      store: data.stores.files,
      dataDir: data.dataDir,
      now: clock.now,
      probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
      isMediaProblem: (error) => error instanceof MediaProbeError,
      ...extra,
    });
  }

  async function upload(bytes: Uint8Array, mimeType: string, owner = alice, displayName?: string) {
    const { uploadId } = await files.startUpload({
      ownerId: owner.ownerId,
      declaredSize: bytes.length,
      mimeType,
      ...(displayName ? { displayName } : {}),
    });
    const state = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 0,
      body: streamOf(bytes),
    });
    return state.file!;
  }

  async function settled(id: string) {
    await files.processor.waitFor(id, 10_000);
    return (await files.store.getFile(id))!;
  }

  beforeEach(async () => {
    data = await tempData(kind);
    clock = new TestClock();
    files = create();
  });
  afterEach(async () => {
    files.stop();
    await data.cleanup();
  });

  it("answers an image ACTIVE at once, with what the probe learnt", async () => {
    const file = await upload(PNG_1X1, "image/png", alice, "pixel.png");
    expect(file.state).toBe("ACTIVE");
    expect(file.probe).toMatchObject({ kind: "image", width: 1, height: 1 });
    const wire = await files.getFile(`files/${file.id}`, alice, ORIGIN);
    expect(wire).toMatchObject({
      name: `files/${file.id}`,
      displayName: "pixel.png",
      mimeType: "image/png",
      sizeBytes: String(PNG_1X1.length),
      uri: `${ORIGIN}/v1beta/files/${file.id}`,
      state: "ACTIVE",
      source: "UPLOADED",
    });
    expect(Date.parse(wire.expirationTime) - Date.parse(wire.createTime)).toBe(FILE_LIFETIME_MS);
    expect(file.id).toMatch(/^[a-z0-9]{12}$/);
  });

  it("keeps audio PROCESSING in the finalize answer, then makes it ACTIVE in the background", async () => {
    const file = await upload(wavBytes(1.5), "audio/wav");
    expect(file.state).toBe("PROCESSING");
    expect(toWireFile(file, ORIGIN).state).toBe("PROCESSING");
    const done = await settled(file.id);
    expect(done.state).toBe("ACTIVE");
    expect((done.probe as { durationSeconds: number }).durationSeconds).toBeCloseTo(1.5, 2);
  });

  it("marks corrupt and unsupported media FAILED with an error", async () => {
    const corrupt = await settled(
      (await upload(Buffer.from("this is not a png at all"), "image/png")).id,
    );
    expect(corrupt.state).toBe("FAILED");
    expect(corrupt.error).toMatchObject({ code: 3 });
    expect(corrupt.error!.message).toMatch(/image/);
    const zip = await settled(
      (await upload(Buffer.from("PK\u0003\u0004 zip bytes"), "application/zip")).id,
    );
    expect(zip.state).toBe("FAILED");
    expect(toWireFile(zip, ORIGIN).error?.message).toContain("Unsupported MIME type");
    const badText = await settled(
      (await upload(Buffer.from([0xff, 0xfe, 0xc3, 0x28]), "text/plain")).id,
    );
    expect(badText.state).toBe("FAILED");
  });

  it("re-probes files a stop left PROCESSING", async () => {
    const slow = create({ probe: () => new Promise(() => undefined) });
    files.stop();
    files = slow;
    const file = await upload(PNG_1X1, "image/png");
    expect((await files.store.getFile(file.id))!.state).toBe("PROCESSING");
    files.stop();
    files = create();
    await files.recover();
    expect((await settled(file.id)).state).toBe("ACTIVE");
  });

  it("fails, rather than probing a third time, a file whose probe stopped the process twice", async () => {
    let probing!: () => void;
    const probeStarted = new Promise<void>((resolve) => (probing = resolve));
    files.stop();
    files = create({
      probe: () => {
        probing();
        return new Promise(() => undefined);
      },
    });
    const file = await upload(wavBytes(1), "audio/wav");
    await probeStarted;
    // That probe is one start that died; a second start died too.
    expect(await files.store.startProbeAttempt(file.id)).toBe(2);
    files = create();
    await files.recover();
    const done = await settled(file.id);
    expect(done.state).toBe("FAILED");
    expect(done.error).toMatchObject({ code: 13 });
    expect(done.error?.message).toMatch(/stopped 2 times in a row while processing it/);
  });

  it("fails a file whose probe never ends", async () => {
    files.stop();
    files = create({ probe: () => new Promise(() => undefined), probeTimeoutMs: 50 });
    const file = await upload(wavBytes(1), "audio/wav");
    const done = await settled(file.id);
    expect(done.state).toBe("FAILED");
    expect(done.error?.message).toContain("took longer");
  });

  it("belongs to its owner: others get the service's 403", async () => {
    const file = await upload(PNG_1X1, "image/png");
    const denied = await catchApiError(() => files.getFile(`files/${file.id}`, bob, ORIGIN));
    expect(denied.httpStatus).toBe(403);
    expect(denied.message).toBe(
      `You do not have permission to access the File ${file.id} or it may not exist.`,
    );
    expect(
      (await catchApiError(() => files.getFile("files/doesnotexist", alice, ORIGIN))).httpStatus,
    ).toBe(403);
    await expect(files.deleteFile(`files/${file.id}`, bob)).rejects.toMatchObject({
      httpStatus: 403,
    });
    expect(await files.listFiles({}, bob, ORIGIN)).toEqual({});
  });

  it("lists newest first, 10 by default and at most 100, with tokens bound to the page size", async () => {
    for (let index = 0; index < 23; index++) {
      await upload(Buffer.from(`file ${index}`), "text/plain", alice, `n${index}`);
      clock.advance(1000);
    }
    const first = await files.listFiles({}, alice, ORIGIN);
    expect(first.files).toHaveLength(10);
    expect(first.files![0]!.displayName).toBe("n22");
    const seen = [...first.files!];
    let token = first.nextPageToken;
    while (token) {
      const page = await files.listFiles({ pageToken: token }, alice, ORIGIN);
      seen.push(...(page.files ?? []));
      token = page.nextPageToken;
    }
    expect(seen.map((file) => file.displayName)).toEqual(
      Array.from({ length: 23 }, (_, index) => `n${22 - index}`),
    );
    expect((await files.listFiles({ pageSize: 500 }, alice, ORIGIN)).files).toHaveLength(23);
    expect(
      (
        await catchApiError(() =>
          files.listFiles({ pageSize: 5, pageToken: first.nextPageToken }, alice, ORIGIN),
        )
      ).message,
    ).toContain("page_token");
    expect(
      (await catchApiError(() => files.listFiles({ pageToken: "garbage" }, alice, ORIGIN)))
        .httpStatus,
    ).toBe(400);
  });

  it("deletes a file's row and bytes", async () => {
    const file = await upload(PNG_1X1, "image/png");
    await files.deleteFile(`files/${file.id}`, alice);
    expect(fs.existsSync(files.uploads.filePath(file.id))).toBe(false);
    expect(
      (await catchApiError(() => files.getFile(`files/${file.id}`, alice, ORIGIN))).httpStatus,
    ).toBe(403);
  });

  it("expires after 48 hours: 403, gone from lists, bytes swept", async () => {
    const file = await upload(PNG_1X1, "image/png");
    clock.advance(FILE_LIFETIME_MS - 1);
    expect((await files.getFile(`files/${file.id}`, alice, ORIGIN)).state).toBe("ACTIVE");
    clock.advance(1);
    expect(
      (await catchApiError(() => files.getFile(`files/${file.id}`, alice, ORIGIN))).httpStatus,
    ).toBe(403);
    expect((await files.listFiles({}, alice, ORIGIN)).files).toBeUndefined();
    await expect(files.resolveFileForCaller(`files/${file.id}`, alice)).rejects.toMatchObject({
      httpStatus: 403,
    });
    expect(fs.existsSync(files.uploads.filePath(file.id))).toBe(true);
    await files.sweep();
    expect(fs.existsSync(files.uploads.filePath(file.id))).toBe(false);
    expect(await files.store.getFile(file.id)).toBeUndefined();
  });

  it("resolves a file URI for generation: ACTIVE only, the caller's only", async () => {
    // Processing waits for the test's word, so the file is certainly PROCESSING when asked for.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    files.stop();
    files = create({
      probe: async (filePath, mimeType, signal) => {
        if (mimeType.startsWith("audio/")) await released;
        return probeMedia({ path: filePath }, mimeType, signal);
      },
    });
    const text = await upload(Buffer.from("The quick brown fox."), "text/plain", alice, "fox.txt");
    const resolved = await files.resolveFileForCaller(`${ORIGIN}/v1beta/files/${text.id}`, alice);
    expect(resolved).toMatchObject({
      mimeType: "text/plain",
      displayName: "fox.txt",
      probed: { kind: "text", text: "The quick brown fox." },
    });
    expect((await files.store.getFile(text.id))!.probe).not.toHaveProperty("text");
    await expect(
      files.resolveFileForCaller(`https://elsewhere.example/v1/files/${text.id}`, bob),
    ).rejects.toMatchObject({ httpStatus: 403 });

    const audio = await upload(wavBytes(1), "audio/wav");
    expect((await files.store.getFile(audio.id))!.state).toBe("PROCESSING");
    await expect(files.resolveFileForCaller(`files/${audio.id}`, alice)).rejects.toMatchObject({
      httpStatus: 400,
      rpcStatus: "FAILED_PRECONDITION",
    });
    release();
    await settled(audio.id);
    expect(await files.resolveFileForCaller(`files/${audio.id}`, alice)).toMatchObject({
      probed: { kind: "audio" },
    });
  });

  it("reads file ids from names and URIs", () => {
    expect(fileIdFrom("files/abc123")).toBe("abc123");
    expect(fileIdFrom("http://127.0.0.1:3000/v1beta/files/abc123?alt=media")).toBe("abc123");
    expect(fileIdFrom("abc123")).toBe("abc123");
    expect(fileIdFrom("files/../../etc/passwd")).toBeNull();
    expect(fileIdFrom("files/ABC")).toBeNull();
  });
});
