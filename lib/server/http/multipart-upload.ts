import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { drainStream } from "@/lib/runtime/drain-stream";

/**
 * The single-request upload (`X-Goog-Upload-Protocol: multipart`, as the legacy JS SDK's
 * GoogleAIFileManager sends it): a `multipart/related` body whose first part is the JSON
 * metadata `{"file": {...}}` and whose second part is the file's bytes. The body is read as a
 * stream: the metadata is held (bounded), the bytes are handed on piece by piece and never
 * held whole. A body that turns out malformed or cut short makes the bytes stream fail with
 * the service's 400, so whatever consumes it stores nothing.
 */

/** Largest metadata part: `{"file": {...}}` only, as a resumable start's body. */
const METADATA_LIMIT = 64 * 1024;
/** Largest preamble, part header block and transport padding accepted. */
const PREAMBLE_LIMIT = 64 * 1024;
const HEADERS_LIMIT = 16 * 1024;
const PADDING_LIMIT = 1024;
/** What is read and dropped after a refusal so a client still sending gets the answer. */
const DISCARD_LIMIT = 64 * 1024 * 1024;

/** RFC 2046: 1 to 70 characters of this set, not ending with a space. */
const BOUNDARY_PATTERN = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

function malformed(field: "Content-Type" | "metadata" | "media", message: string): ApiError {
  return ApiError.invalidArgument(message, [{ field, description: message }]);
}

/**
 * The boundary of a multipart Content-Type (`multipart/related`, or `multipart/form-data` as
 * generic HTTP libraries send); the service's 400 naming Content-Type when there is none.
 */
export function multipartBoundary(contentType: string | null): string {
  const [type = "", ...parameters] = (contentType ?? "").split(";");
  const mediaType = type.trim().toLowerCase();
  if (mediaType !== "multipart/related" && mediaType !== "multipart/form-data") {
    throw malformed(
      "Content-Type",
      `X-Goog-Upload-Protocol: multipart needs Content-Type: multipart/related; boundary=...; got "${(contentType ?? "").slice(0, 80)}".`,
    );
  }
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=");
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== "boundary") continue;
    let value = parameter.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    if (!BOUNDARY_PATTERN.test(value)) {
      throw malformed(
        "Content-Type",
        `The multipart boundary "${value.slice(0, 80)}" is not valid: 1 to 70 characters, letters, digits and '()+_,-./:=? only.`,
      );
    }
    return value;
  }
  throw malformed(
    "Content-Type",
    `The Content-Type "${(contentType ?? "").slice(0, 80)}" has no boundary parameter: send multipart/related; boundary=...`,
  );
}

/** Scans a body for `\r\n--boundary` delimiters, handing out what lies between them. */
class DelimiterScanner {
  private readonly delimiter: Buffer;
  /** Starts with a CRLF of its own, so a delimiter at the very start of the body is found too. */
  private buffer: Buffer = Buffer.from("\r\n");
  /** Bytes of the real body taken off so far (the CRLF above is not one of them). */
  taken = -2;
  private ended = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    boundary: string,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
  }

  private async fill(): Promise<boolean> {
    while (!this.ended) {
      const { done, value } = await this.reader.read();
      if (done) {
        this.ended = true;
        break;
      }
      if (value.byteLength === 0) continue;
      const piece = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, piece]) : piece;
      return true;
    }
    return false;
  }

  private take(length: number): Buffer {
    const piece = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    this.taken += length;
    return piece;
  }

  /**
   * The next bytes of the current part, or null once its closing delimiter was reached (and
   * consumed). Only the last `delimiter - 1` bytes are ever held back, so the scan is linear.
   */
  async nextPiece(truncated: () => ApiError): Promise<Buffer | null> {
    for (;;) {
      const at = this.buffer.indexOf(this.delimiter);
      if (at === 0) {
        this.take(this.delimiter.length);
        return null;
      }
      if (at > 0) return this.take(at);
      const safe = this.buffer.length - (this.delimiter.length - 1);
      if (safe > 0) return this.take(safe);
      if (!(await this.fill())) throw truncated();
    }
  }

  /** After a delimiter: `--` closes the body, else transport padding and CRLF open a part. */
  async afterDelimiter(truncated: () => ApiError): Promise<"close" | "part"> {
    while (this.buffer.length < 2) if (!(await this.fill())) throw truncated();
    if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
      this.take(2);
      return "close";
    }
    for (;;) {
      const end = this.buffer.indexOf("\r\n");
      // Without a CRLF yet, a last CR may be the start of one.
      const padding = this.buffer.subarray(
        0,
        end >= 0 ? end : this.buffer.at(-1) === 0x0d ? -1 : this.buffer.length,
      );
      if (padding.some((byte) => byte !== 0x20 && byte !== 0x09) || padding.length > PADDING_LIMIT)
        throw truncated();
      if (end >= 0) {
        this.take(end + 2);
        return "part";
      }
      if (!(await this.fill())) throw truncated();
    }
  }

  /** A part's header block, up to and including its blank line; names in lower case. */
  async headers(truncated: () => ApiError): Promise<Map<string, string>> {
    const headers = new Map<string, string>();
    for (;;) {
      if (this.buffer.length >= 2 && this.buffer[0] === 0x0d && this.buffer[1] === 0x0a) {
        this.take(2);
        return headers;
      }
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end > HEADERS_LIMIT) throw truncated();
      if (end >= 0) {
        for (const line of this.take(end + 4)
          .toString("latin1")
          .split("\r\n")) {
          const colon = line.indexOf(":");
          if (colon > 0)
            headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
        return headers;
      }
      if (this.buffer.length > HEADERS_LIMIT || !(await this.fill())) throw truncated();
    }
  }
}

export interface MultipartUpload {
  /** The metadata part, parsed JSON. */
  metadata: unknown;
  /** The Content-Type of the bytes part, when it has one. */
  mediaType?: string;
  /** Bytes of the request body before the file's bytes (preamble, metadata, part headers). */
  headBytes: number;
  /**
   * The file's bytes, streamed as the client sends them. It ends only after the closing
   * boundary was seen; a body cut short, or a third part, fails it with the service's 400.
   */
  media: ReadableStream<Uint8Array>;
}

/**
 * Reads a multipart upload's metadata and the start of its bytes part from `body`. Throws
 * the service's 400 for a malformed start (no boundary line, metadata that is not JSON or
 * too long, no bytes part); the caller then discards the rest with `discardMultipartBody`.
 */
export async function readMultipartUpload(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundary: string,
): Promise<MultipartUpload> {
  const scanner = new DelimiterScanner(reader, boundary);
  await skipToMetadata(scanner, boundary);
  const metadata = await readMetadata(scanner);
  const noMedia = () =>
    malformed(
      "media",
      "The multipart body has no part with the file's bytes after its metadata part: nothing was stored.",
    );
  if ((await scanner.afterDelimiter(noMedia)) === "close") throw noMedia();
  const mediaHeaders = await scanner.headers(noMedia);
  const headBytes = scanner.taken;
  const media = mediaStream(scanner, reader, boundary);
  const mediaType = mediaHeaders.get("content-type");
  return { metadata, ...(mediaType ? { mediaType } : {}), headBytes, media };
}

/** Past the preamble (bounded) and the first boundary, to the metadata part's body. */
async function skipToMetadata(scanner: DelimiterScanner, boundary: string): Promise<void> {
  const noMetadata = () =>
    malformed(
      "metadata",
      `The multipart body ended before its metadata part: it must start with --${boundary}, then the JSON metadata part.`,
    );
  let preamble = 0;
  for (let piece = await scanner.nextPiece(noMetadata); piece;) {
    preamble += piece.length;
    if (preamble > PREAMBLE_LIMIT) throw noMetadata();
    piece = await scanner.nextPiece(noMetadata);
  }
  if ((await scanner.afterDelimiter(noMetadata)) === "close") throw noMetadata();
  await scanner.headers(noMetadata);
}

/** The metadata part as JSON (empty: `{}`), at most METADATA_LIMIT bytes. */
async function readMetadata(scanner: DelimiterScanner): Promise<unknown> {
  const metadataTruncated = () =>
    malformed(
      "metadata",
      "The multipart body ended inside its metadata part: the upload is incomplete and nothing was stored.",
    );
  const metadataPieces: Buffer[] = [];
  let metadataLength = 0;
  for (let piece = await scanner.nextPiece(metadataTruncated); piece;) {
    metadataLength += piece.length;
    if (metadataLength > METADATA_LIMIT) {
      throw malformed(
        "metadata",
        `The metadata part is larger than ${METADATA_LIMIT} bytes: it holds only {"file": {...}}.`,
      );
    }
    metadataPieces.push(piece);
    piece = await scanner.nextPiece(metadataTruncated);
  }
  const metadataText = Buffer.concat(metadataPieces).toString("utf8").trim();
  try {
    return metadataText === "" ? {} : JSON.parse(metadataText);
  } catch {
    throw malformed(
      "metadata",
      `Invalid JSON payload received in the metadata part (the first part of the multipart body): ${JSON.stringify(metadataText.slice(0, 60))}...`,
    );
  }
}

/** The bytes part as a stream, pulled as it is read; a third part or a missing closing boundary fails it. */
function mediaStream(
  scanner: DelimiterScanner,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundary: string,
): ReadableStream<Uint8Array> {
  const mediaTruncated = () =>
    malformed(
      "media",
      `The multipart body ended before its closing boundary --${boundary}--: the upload is incomplete and nothing was stored.`,
    );
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const piece = await scanner.nextPiece(mediaTruncated);
          if (piece) {
            controller.enqueue(piece);
            return;
          }
          if ((await scanner.afterDelimiter(mediaTruncated)) === "part") {
            throw malformed(
              "media",
              "The multipart body has more than two parts: send the metadata part, then the file's bytes, then the closing boundary.",
            );
          }
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await reader.cancel().catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads and drops the rest of a refused body (bounded), so the client still sending gets the answer. */
export async function discardMultipartBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<void> {
  await drainStream(reader, DISCARD_LIMIT);
}
