import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { MediaProbeError, probeMedia } from "../media/probe";
import { FileService } from "./file-service";
import { FILE_LIFETIME_MS, UPLOAD_SESSION_LIFETIME_MS } from "./upload-sessions";
import { testDatabaseKinds } from "@/lib/testing/databases";
import {
  brokenStreamOf,
  patternBytes,
  streamOf,
  tempData,
  TestClock,
  type TempData,
} from "@/lib/testing/engine-files";

const alice = { ownerId: "key:alice" };

function service(
  data: TempData,
  clock: TestClock,
  extra: Partial<ConstructorParameters<typeof FileService>[0]> = {},
): FileService {
  return new FileService({
    store: data.stores.files,
    dataDir: data.dataDir,
    now: clock.now,
    probe: (filePath, mimeType, signal) => probeMedia({ path: filePath }, mimeType, signal),
    isMediaProblem: (error) => error instanceof MediaProbeError,
    ...extra,
  });
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

describe.each(testDatabaseKinds())("resumable upload sessions ($dialect)", (kind) => {
  let data: TempData;
  let clock: TestClock;
  let files: FileService;

  beforeEach(async () => {
    data = await tempData(kind);
    clock = new TestClock();
    files = service(data, clock);
  });
  afterEach(async () => {
    files.stop();
    await data.cleanup();
  });

  it("streams chunks to disk, hashes them and shows the file only when whole", async () => {
    const bytes = patternBytes(300_000);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: bytes.length,
      mimeType: "text/plain",
      displayName: "notes",
    });
    const first = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: streamOf(bytes.subarray(0, 100_000)),
    });
    expect(first).toEqual({ status: "active", sizeReceived: 100_000 });
    expect(await files.store.listFiles(alice.ownerId, clock.now(), 10, null)).toHaveLength(0);
    const filesDir = path.join(data.dataDir, "files");
    expect(fs.existsSync(filesDir) ? fs.readdirSync(filesDir) : []).toEqual([]);

    await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 100_000,
      body: streamOf(bytes.subarray(100_000, 200_000), 7_000),
    });
    expect(await files.queryUpload(uploadId)).toEqual({ status: "active", sizeReceived: 200_000 });

    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 200_000,
      body: streamOf(bytes.subarray(200_000)),
    });
    expect(final.status).toBe("final");
    expect(final.file).toMatchObject({
      mimeType: "text/plain",
      sizeBytes: 300_000,
      displayName: "notes",
      sha256Hash: serviceHash(bytes),
    });
    const stored = fs.readFileSync(path.join(data.dataDir, "files", final.file!.id));
    expect(Buffer.compare(stored, Buffer.from(bytes))).toBe(0);
    expect(fs.readdirSync(path.join(data.dataDir, "uploads"))).toEqual([]);
    expect(final.file!.expireTime - final.file!.createTime).toBe(FILE_LIFETIME_MS);
  });

  it("takes an upload started without a length (as the service does): the file gets the size finalized", async () => {
    const bytes = patternBytes(34);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: undefined,
      mimeType: "text/plain",
      displayName: "test.txt",
    });
    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 0,
      body: streamOf(bytes),
    });
    expect(final).toMatchObject({ status: "final", sizeReceived: 34 });
    expect(final.file).toMatchObject({ sizeBytes: 34, sha256Hash: serviceHash(bytes) });
    // Its reservation is released: the owner's usage is the file alone.
    expect(await files.store.usedBytes(alice.ownerId, clock.now())).toBe(34);
    const empty = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: undefined,
      mimeType: "text/plain",
    });
    const refusal = await rejection(
      files.uploadChunk(empty.uploadId, { upload: false, finalize: true, offset: 0, body: null }),
    );
    expect(refusal.message).toContain("zero-byte files cannot be uploaded");
  });

  it("refuses a zero-byte upload, an oversized length, and a missing type", async () => {
    const zero = await rejection(
      files.startUpload({ ownerId: alice.ownerId, declaredSize: 0, mimeType: "text/plain" }),
    );
    expect(zero.httpStatus).toBe(400);
    expect(zero.message).toContain("zero-byte files cannot be uploaded");
    const huge = await rejection(
      files.startUpload({
        ownerId: alice.ownerId,
        declaredSize: 3 * 1024 ** 3,
        mimeType: "video/mp4",
      }),
    );
    expect(huge.message).toContain("too large");
    expect(
      (
        await rejection(
          files.startUpload({ ownerId: alice.ownerId, declaredSize: 10, mimeType: undefined }),
        )
      ).message,
    ).toContain("MIME type is required");
    expect(
      (
        await rejection(
          files.startUpload({ ownerId: alice.ownerId, declaredSize: 10, mimeType: "not a type" }),
        )
      ).message,
    ).toContain("not a valid type/subtype");
  });

  it("enforces the per-owner quota, counting open uploads, and only for that owner", async () => {
    const small = service(data, clock, { quotaBytes: 1000 });
    try {
      await small.startUpload({
        ownerId: alice.ownerId,
        declaredSize: 600,
        mimeType: "text/plain",
      });
      const over = await rejection(
        small.startUpload({ ownerId: alice.ownerId, declaredSize: 500, mimeType: "text/plain" }),
      );
      expect(over.httpStatus).toBe(429);
      expect(over.rpcStatus).toBe("RESOURCE_EXHAUSTED");
      expect(over.message).toContain("quota");
      await expect(
        small.startUpload({ ownerId: "key:bob", declaredSize: 900, mimeType: "text/plain" }),
      ).resolves.toHaveProperty("uploadId");
    } finally {
      small.stop();
    }
  });

  it("refuses a wrong offset without touching the bytes received", async () => {
    const bytes = patternBytes(1000);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 1000,
      mimeType: "text/plain",
    });
    await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: streamOf(bytes.subarray(0, 400)),
    });
    const wrong = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: false,
        offset: 500,
        body: streamOf(bytes.subarray(500)),
      }),
    );
    expect(wrong.httpStatus).toBe(400);
    expect(wrong.message).toContain("has received 400 bytes");
    const missing = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: false,
        body: streamOf(bytes.subarray(400)),
      }),
    );
    expect(missing.message).toContain("Upload-Offset) is required");
    expect((await files.queryUpload(uploadId)).sizeReceived).toBe(400);
    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 400,
      body: streamOf(bytes.subarray(400)),
    });
    expect(final.file!.sha256Hash).toBe(serviceHash(bytes));
  });

  it("discards a chunk that brings more bytes than declared, whether or not its length was announced", async () => {
    const bytes = patternBytes(1000);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 600,
      mimeType: "text/plain",
    });
    await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: streamOf(bytes.subarray(0, 200)),
    });
    const announced = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: true,
        offset: 200,
        contentLength: 800,
        body: streamOf(bytes.subarray(200)),
      }),
    );
    expect(announced.message).toContain("more bytes than declared");
    const streamed = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: true,
        offset: 200,
        body: streamOf(bytes.subarray(200), 100),
      }),
    );
    expect(streamed.message).toContain("more bytes than declared");
    expect((await files.queryUpload(uploadId)).sizeReceived).toBe(200);
    expect(
      fs.statSync(files.uploads.partPath((await files.store.getSession(uploadId))!.fileId)).size,
    ).toBe(200);
    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 200,
      body: streamOf(bytes.subarray(200, 600)),
    });
    expect(final.file!.sha256Hash).toBe(serviceHash(bytes.subarray(0, 600)));
  });

  it("will not finalize short of the declared length, and keeps what arrived", async () => {
    const bytes = patternBytes(500);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 500,
      mimeType: "text/plain",
    });
    const short = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: true,
        offset: 0,
        body: streamOf(bytes.subarray(0, 300)),
      }),
    );
    expect(short.message).toContain("300 of the 500 declared bytes");
    expect((await files.queryUpload(uploadId)).sizeReceived).toBe(300);
    expect(await files.store.listFiles(alice.ownerId, clock.now(), 10, null)).toHaveLength(0);
  });

  it("refuses a second finalize, and answers query with the final file", async () => {
    const bytes = patternBytes(100);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 100,
      mimeType: "text/plain",
    });
    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 0,
      body: streamOf(bytes),
    });
    const again = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: true,
        offset: 0,
        body: streamOf(bytes),
      }),
    );
    expect(again.httpStatus).toBe(400);
    expect(again.message).toContain("already finalized");
    const query = await files.queryUpload(uploadId);
    expect(query.status).toBe("final");
    expect(query.file?.id).toBe(final.file!.id);
  });

  it("answers unknown, cancelled and expired sessions with a clear 400", async () => {
    expect((await rejection(files.queryUpload("no-such-session"))).message).toContain(
      "Unknown upload session",
    );
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 100,
      mimeType: "text/plain",
    });
    await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: streamOf(patternBytes(50)),
    });
    expect(await files.cancelUpload(uploadId)).toMatchObject({ status: "cancelled" });
    const cancelled = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: false,
        offset: 50,
        body: streamOf(patternBytes(50)),
      }),
    );
    expect(cancelled.message).toContain("cancelled");
    expect(fs.readdirSync(path.join(data.dataDir, "uploads"))).toEqual([]);

    const later = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 100,
      mimeType: "text/plain",
    });
    clock.advance(UPLOAD_SESSION_LIFETIME_MS + 1);
    expect((await rejection(files.queryUpload(later.uploadId))).message).toContain(
      "Unknown upload session",
    );
    await files.sweep();
    expect(fs.readdirSync(path.join(data.dataDir, "uploads"))).toEqual([]);
  });

  it("refuses a second request while a chunk is being received", async () => {
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 100,
      mimeType: "text/plain",
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await gate;
        controller.enqueue(patternBytes(10));
        controller.close();
      },
    });
    const first = files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: slow,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const busy = await rejection(
      files.uploadChunk(uploadId, {
        upload: true,
        finalize: false,
        offset: 0,
        body: streamOf(patternBytes(10)),
      }),
    );
    expect(busy.httpStatus).toBe(409);
    expect(await files.queryUpload(uploadId)).toEqual({ status: "active", sizeReceived: 0 });
    release();
    expect(await first).toEqual({ status: "active", sizeReceived: 10 });
  });

  it("continues on another instance chunk by chunk, and the hash covers exactly the file", async () => {
    const other = service({ ...data, stores: (await data.reopen()).stores }, clock);
    try {
      const bytes = patternBytes(3 * 40_000 + 123);
      const { uploadId } = await files.startUpload({
        ownerId: alice.ownerId,
        declaredSize: bytes.length,
        mimeType: "application/octet-stream",
      });
      const send = (by: FileService, from: number, to: number, finalize = false) =>
        by.uploadChunk(uploadId, {
          upload: true,
          finalize,
          offset: from,
          body: streamOf(bytes.slice(from, to)),
        });
      await send(files, 0, 40_000);
      await send(other, 40_000, 80_000);
      // Back on the first: its hash is behind the recorded size and is carried forward.
      await send(files, 80_000, 120_000);
      expect(await other.queryUpload(uploadId)).toEqual({
        status: "active",
        sizeReceived: 120_000,
      });
      const final = await send(other, 120_000, bytes.length, true);
      expect(final.file?.sha256Hash).toBe(serviceHash(bytes));
      expect(fs.readFileSync(path.join(data.dataDir, "files", final.file!.id))).toEqual(
        Buffer.from(bytes),
      );
    } finally {
      other.stop();
    }
  });

  it.runIf(kind.dialect === "postgres")(
    "lets one instance at a time receive a session; the other answers its count",
    async () => {
      const other = service({ ...data, stores: (await data.reopen()).stores }, clock);
      try {
        const { uploadId } = await files.startUpload({
          ownerId: alice.ownerId,
          declaredSize: 100,
          mimeType: "text/plain",
        });
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let reading!: () => void;
        // The body is read only once the session is claimed: its first read says the claim holds.
        const claimed = new Promise<void>((resolve) => (reading = resolve));
        const first = files.uploadChunk(uploadId, {
          upload: true,
          finalize: false,
          offset: 0,
          body: new ReadableStream<Uint8Array>(
            {
              async pull(controller) {
                reading();
                await gate;
                controller.enqueue(patternBytes(10));
                controller.close();
              },
            },
            // No read ahead: pull runs only when the receiver reads.
            { highWaterMark: 0 },
          ),
        });
        await claimed;
        const busy = await rejection(
          other.uploadChunk(uploadId, {
            upload: true,
            finalize: false,
            offset: 0,
            body: streamOf(patternBytes(10)),
          }),
        );
        expect(busy.httpStatus).toBe(409);
        expect(await other.queryUpload(uploadId)).toEqual({ status: "active", sizeReceived: 0 });
        release();
        expect(await first).toEqual({ status: "active", sizeReceived: 10 });
        expect(
          await other.uploadChunk(uploadId, {
            upload: true,
            finalize: false,
            offset: 10,
            body: streamOf(patternBytes(10)),
          }),
        ).toEqual({ status: "active", sizeReceived: 20 });
      } finally {
        other.stop();
      }
    },
  );

  it("keeps the bytes of a body cut off midway, so the upload resumes from there", async () => {
    const bytes = patternBytes(2000);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 2000,
      mimeType: "text/plain",
    });
    const broken = await files
      .uploadChunk(uploadId, {
        upload: true,
        finalize: false,
        offset: 0,
        body: brokenStreamOf(bytes.subarray(0, 700)),
      })
      .catch((error) => error);
    expect(broken).toBeInstanceOf(ApiError);
    expect((broken as ApiError).message).toContain("ended unexpectedly");
    expect((await files.queryUpload(uploadId)).sizeReceived).toBe(700);
    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 700,
      body: streamOf(bytes.subarray(700)),
    });
    expect(final.file!.sha256Hash).toBe(serviceHash(bytes));
  });

  it("resumes after a restart: unacknowledged bytes are cut off and the hash covers exactly the file", async () => {
    const bytes = patternBytes(5000);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 5000,
      mimeType: "text/plain",
    });
    await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: streamOf(bytes.subarray(0, 3000)),
    });
    const fileId = (await files.store.getSession(uploadId))!.fileId;
    // A crash mid-chunk: bytes on disk that were never acknowledged.
    fs.appendFileSync(
      files.uploads.partPath(fileId),
      Buffer.from("garbage that never was acknowledged"),
    );
    files.stop();

    files = service(data, clock);
    await files.recover();
    expect(await files.queryUpload(uploadId)).toEqual({ status: "active", sizeReceived: 3000 });
    expect(fs.statSync(files.uploads.partPath(fileId)).size).toBe(3000);
    const final = await files.uploadChunk(uploadId, {
      upload: true,
      finalize: true,
      offset: 3000,
      body: streamOf(bytes.subarray(3000)),
    });
    expect(final.file!.sha256Hash).toBe(serviceHash(bytes));
    expect(
      Buffer.compare(fs.readFileSync(files.uploads.filePath(fileId)), Buffer.from(bytes)),
    ).toBe(0);
  });

  it("recovers a finalize cut off between the rename and the database commit", async () => {
    const bytes = patternBytes(300);
    const { uploadId } = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 300,
      mimeType: "text/plain",
    });
    await files.uploadChunk(uploadId, {
      upload: true,
      finalize: false,
      offset: 0,
      body: streamOf(bytes),
    });
    const fileId = (await files.store.getSession(uploadId))!.fileId;
    fs.mkdirSync(files.uploads.filesDir, { recursive: true });
    fs.renameSync(files.uploads.partPath(fileId), files.uploads.filePath(fileId));
    files.stop();

    files = service(data, clock);
    await files.recover();
    expect(await files.store.getFile(fileId)).toBeUndefined();
    const final = await files.uploadChunk(uploadId, {
      upload: false,
      finalize: true,
      offset: 300,
      body: null,
    });
    expect(final.status).toBe("final");
    expect(final.file!.sha256Hash).toBe(serviceHash(bytes));
  });

  it("lets a client choose the file id, once", async () => {
    const first = await files.startUpload({
      ownerId: alice.ownerId,
      declaredSize: 5,
      mimeType: "text/plain",
      requestedName: "files/my-notes",
    });
    await files.uploadChunk(first.uploadId, {
      upload: true,
      finalize: true,
      offset: 0,
      body: streamOf(Buffer.from("hello")),
    });
    expect((await files.store.getFile("my-notes"))?.sizeBytes).toBe(5);
    const again = await rejection(
      files.startUpload({
        ownerId: "key:bob",
        declaredSize: 5,
        mimeType: "text/plain",
        requestedName: "files/my-notes",
      }),
    );
    expect(again.httpStatus).toBe(409);
    expect(
      (
        await rejection(
          files.startUpload({
            ownerId: alice.ownerId,
            declaredSize: 5,
            mimeType: "text/plain",
            requestedName: "files/-bad",
          }),
        )
      ).httpStatus,
    ).toBe(400);
  });
});

/** Valid UTF-8 text of `length` bytes, so a text/plain file becomes ACTIVE. */
function textBytes(length: number): Buffer {
  return Buffer.from(
    "The keeper counted the ships. ".repeat(Math.ceil(length / 30)).slice(0, length),
  );
}

describe.each(testDatabaseKinds())("single-request (multipart) uploads ($dialect)", (kind) => {
  let data: TempData;
  let clock: TestClock;
  let files: FileService;

  beforeEach(async () => {
    data = await tempData(kind);
    clock = new TestClock();
    files = service(data, clock, { quotaBytes: 1_000_000, maxFileBytes: 600_000 });
  });
  afterEach(async () => {
    files.stop();
    await data.cleanup();
  });

  const partFiles = () => {
    const uploads = path.join(data.dataDir, "uploads");
    return fs.existsSync(uploads) ? fs.readdirSync(uploads) : [];
  };
  const whole = (body: ReadableStream<Uint8Array>, maxLength?: number) =>
    files.uploadWhole(
      {
        ownerId: alice.ownerId,
        mimeType: "text/plain",
        displayName: "notes",
        ...(maxLength !== undefined ? { maxLength } : {}),
      },
      body,
    );

  it("stores the bytes at their real size, hashed, ACTIVE, with no reservation left", async () => {
    const bytes = textBytes(300_000);
    // maxLength counts the closing boundary too: the real size is found at the end.
    const file = await whole(streamOf(bytes), bytes.length + 40);
    expect(file).toMatchObject({ sizeBytes: bytes.length, state: "ACTIVE", displayName: "notes" });
    expect(file.sha256Hash).toBe(serviceHash(bytes));
    expect(fs.readFileSync(path.join(data.dataDir, "files", file.id)).equals(bytes)).toBe(true);
    expect(await files.store.usedBytes(alice.ownerId, clock.now())).toBe(bytes.length);
    expect(partFiles()).toEqual([]);
    // Without a declared length it works the same.
    const unsized = await whole(streamOf(bytes.subarray(0, 1000)));
    expect(unsized.sizeBytes).toBe(1000);
  });

  it("stores nothing when the body turns out malformed or is cut off", async () => {
    const malformed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(textBytes(50_000));
        controller.error(ApiError.invalidArgument("cut before the closing boundary"));
      },
    });
    const refused = await rejection(whole(malformed, 100_000));
    expect(refused.message).toContain("closing boundary");
    await expect(whole(brokenStreamOf(textBytes(50_000)), 100_000)).rejects.toThrow();
    expect(await files.store.listFiles(alice.ownerId, clock.now(), 10, null)).toHaveLength(0);
    expect(await files.store.usedBytes(alice.ownerId, clock.now())).toBe(0);
    expect(partFiles()).toEqual([]);
  });

  it("refuses empty files, files over the size limit and over the quota, naming the part", async () => {
    const empty = await rejection(whole(streamOf(new Uint8Array(0)), 10));
    expect(empty.httpStatus).toBe(400);
    expect(empty.message).toContain("zero-byte");
    const tooLarge = await rejection(whole(streamOf(textBytes(700_000)), 700_040));
    expect(tooLarge.httpStatus).toBe(400);
    expect(tooLarge.details).toEqual([
      expect.objectContaining({ fieldViolations: [expect.objectContaining({ field: "media" })] }),
    ]);
    await whole(streamOf(textBytes(500_000)), 500_040);
    // Known length: refused before any byte is read; unknown: when the bytes pass what is left.
    expect((await rejection(whole(streamOf(textBytes(550_000)), 550_040))).httpStatus).toBe(429);
    expect((await rejection(whole(streamOf(textBytes(550_000))))).httpStatus).toBe(429);
    expect(await files.store.usedBytes(alice.ownerId, clock.now())).toBe(500_000);
    expect(partFiles()).toEqual([]);
  });

  it("drops an upload a stop interrupted at the next start-up, and no upload URL reaches it", async () => {
    let started!: () => void;
    const receiving = new Promise<void>((resolve) => (started = resolve));
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          controller.enqueue(textBytes(10_000));
          started();
          return new Promise(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
    void whole(endless, 500_000).catch(() => undefined);
    await receiving;
    expect(await files.store.usedBytes(alice.ownerId, clock.now())).toBe(500_000);
    const [session] = await files.store.activeSessionsWithIdPrefix("whole.");
    const chunk = await rejection(
      files.uploadChunk(session!.id, { upload: true, finalize: true, offset: 0, body: null }),
    );
    expect(chunk.message).toContain("Unknown upload session");
    // A new process over the same data; the old one is gone, and its claims with it.
    const next = await data.reopen();
    await data.database.close();
    const restarted = service(data, clock, { quotaBytes: 1_000_000, store: next.stores.files });
    await restarted.recover();
    expect(await restarted.store.usedBytes(alice.ownerId, clock.now())).toBe(0);
    expect(partFiles()).toEqual([]);
    restarted.stop();
  });
});
