import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import { multipartBoundary, readMultipartUpload } from "./multipart-upload";

const BOUNDARY = "d3f1a2b4c5";

/** The body @google/generative-ai's GoogleAIFileManager.uploadFile sends (src/server/file-manager.ts). */
function legacySdkBody(metadata: string, bytes: Uint8Array, mimeType = "text/plain"): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${metadata}\r\n--${BOUNDARY}\r\nContent-Type: ${mimeType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--`),
  ]);
}

/** A request body delivered in pieces of the given sizes (cycled). */
function streamOf(body: Uint8Array, sizes: number[] = [body.length || 1]) {
  let offset = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      const size = sizes[turn++ % sizes.length]!;
      controller.enqueue(body.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(pieces);
    pieces.push(value);
  }
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected a refusal");
}

function fieldOf(error: ApiError): string | undefined {
  const detail = error.details?.[0];
  return detail && "fieldViolations" in detail ? detail.fieldViolations[0]?.field : undefined;
}

describe("multipartBoundary", () => {
  it("reads plain and quoted boundaries of multipart/related and form-data", () => {
    expect(multipartBoundary(`multipart/related; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(multipartBoundary('Multipart/Related; type="application/json"; boundary="a b:c"')).toBe(
      "a b:c",
    );
    expect(multipartBoundary("multipart/form-data; boundary=----x")).toBe("----x");
  });

  it("refuses a missing or invalid boundary and other types, naming Content-Type", () => {
    for (const contentType of [
      "multipart/related",
      "multipart/related; boundary=",
      `multipart/related; boundary=${"x".repeat(71)}`,
      "application/json",
      null,
    ]) {
      let error: unknown;
      try {
        multipartBoundary(contentType);
      } catch (caught) {
        error = caught;
      }
      expect(error, String(contentType)).toBeInstanceOf(ApiError);
      expect((error as ApiError).httpStatus).toBe(400);
      expect(fieldOf(error as ApiError)).toBe("Content-Type");
    }
  });
});

describe("readMultipartUpload", () => {
  it("reads the legacy SDK's body split at any size, bytes exactly as sent", async () => {
    // Bytes that look like the delimiter without being it, at every position.
    const bytes = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\n--${BOUNDARY.slice(0, -1)}\r\n\r\n-`),
      Buffer.from(Array.from({ length: 3000 }, (_, index) => (index * 7) % 256)),
      Buffer.from(`\r\n-${BOUNDARY}`),
    ]);
    const body = legacySdkBody('{"file":{"mimeType":"text/plain","displayName":"notes"}}', bytes);
    for (const sizes of [[1], [2, 3], [7, 64, 5], [4096], [body.length]]) {
      const upload = await readMultipartUpload(streamOf(body, sizes).getReader(), BOUNDARY);
      expect(upload.metadata).toEqual({ file: { mimeType: "text/plain", displayName: "notes" } });
      expect(upload.mediaType).toBe("text/plain");
      expect(upload.headBytes).toBe(body.length - bytes.length - `\r\n--${BOUNDARY}--`.length);
      expect((await readAll(upload.media)).equals(bytes)).toBe(true);
    }
  });

  it("accepts a preamble, transport padding, a trailing CRLF and an epilogue", async () => {
    const body = Buffer.from(
      `preamble text\r\n--${BOUNDARY}  \r\n\r\n{}\r\n--${BOUNDARY}\t\r\nContent-Type: image/png\r\n\r\nPNG\r\n--${BOUNDARY}--\r\nepilogue`,
    );
    const upload = await readMultipartUpload(streamOf(body, [3]).getReader(), BOUNDARY);
    expect(upload.metadata).toEqual({});
    expect(upload.mediaType).toBe("image/png");
    expect((await readAll(upload.media)).toString()).toBe("PNG");
  });

  it("fails the bytes with a 400 naming media when the body is cut before its closing boundary", async () => {
    const whole = legacySdkBody("{}", Buffer.from("0123456789".repeat(100)));
    for (const cut of [whole.length - 1, whole.length - 3, whole.length - 500]) {
      const upload = await readMultipartUpload(
        streamOf(whole.subarray(0, cut), [100]).getReader(),
        BOUNDARY,
      );
      const error = await failure(readAll(upload.media));
      expect(error.httpStatus).toBe(400);
      expect(fieldOf(error)).toBe("media");
      expect(error.message).toContain("closing boundary");
    }
  });

  it("refuses metadata that is not JSON, naming metadata", async () => {
    const error = await failure(
      readMultipartUpload(
        streamOf(legacySdkBody("{not json", Buffer.from("x"))).getReader(),
        BOUNDARY,
      ),
    );
    expect(error.httpStatus).toBe(400);
    expect(fieldOf(error)).toBe("metadata");
    expect(error.message).toContain("Invalid JSON payload");
  });

  it("refuses a body without the boundary, a cut metadata part, a missing bytes part and a third part", async () => {
    const noBoundary = await failure(
      readMultipartUpload(streamOf(Buffer.from("just some bytes")).getReader(), BOUNDARY),
    );
    expect(fieldOf(noBoundary)).toBe("metadata");
    const cutMetadata = await failure(
      readMultipartUpload(
        streamOf(Buffer.from(`--${BOUNDARY}\r\n\r\n{"file":`)).getReader(),
        BOUNDARY,
      ),
    );
    expect(fieldOf(cutMetadata)).toBe("metadata");
    const noMedia = await failure(
      readMultipartUpload(
        streamOf(Buffer.from(`--${BOUNDARY}\r\n\r\n{}\r\n--${BOUNDARY}--`)).getReader(),
        BOUNDARY,
      ),
    );
    expect(fieldOf(noMedia)).toBe("media");
    const third = await readMultipartUpload(
      streamOf(
        Buffer.from(
          `--${BOUNDARY}\r\n\r\n{}\r\n--${BOUNDARY}\r\n\r\nA\r\n--${BOUNDARY}\r\n\r\nB\r\n--${BOUNDARY}--`,
        ),
      ).getReader(),
      BOUNDARY,
    );
    const thirdError = await failure(readAll(third.media));
    expect(fieldOf(thirdError)).toBe("media");
    expect(thirdError.message).toContain("more than two parts");
  });

  it("hands the bytes on as they arrive: the first piece comes before the body ends", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const head = Buffer.from(`--${BOUNDARY}\r\n\r\n{}\r\n--${BOUNDARY}\r\n\r\n`);
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(head);
        controller.enqueue(Buffer.alloc(100_000, 1));
        await held;
        controller.enqueue(Buffer.from(`\r\n--${BOUNDARY}--`));
        controller.close();
      },
    });
    const upload = await readMultipartUpload(stream.getReader(), BOUNDARY);
    const reader = upload.media.getReader();
    const first = await reader.read();
    expect(first.value!.byteLength).toBeGreaterThan(90_000);
    release();
    let rest = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += value.byteLength;
    }
    expect(first.value!.byteLength + rest).toBe(100_000);
  });
});
