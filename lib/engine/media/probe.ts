/**
 * Media probe for token counting and the file lifecycle (api-notes §4–5): what a medium is and
 * how big (image size, audio/video duration, PDF pages, text of text files), read with the
 * media libraries. Differs knowingly: PDFs above MAX_PDF_BYTES and text past MAX_TEXT_BYTES are
 * not read whole (the first is refused, the second truncated and flagged).
 */
import { stat } from "node:fs/promises";
import { imageSize } from "image-size";
import { adtsDurationSeconds, mp3PaddingSeconds } from "./audio-frames";
import { readMovieFacts } from "./iso-bmff";
import { pdfPageSizes, PdfReadError } from "./pdf-pages";
import { readHead } from "./read-head.mjs";
import { jpegFrameSize } from "./jpeg-frame";

export type MediaKind = "image" | "audio" | "video" | "document" | "text";

export interface ProbedMedia {
  kind: MediaKind;
  mimeType: string;
  /** Size of the medium in bytes. */
  sizeBytes: number;
  /** Pixels of an image or a video's picture. */
  width?: number;
  height?: number;
  /** Everything a decoder outputs, encoder delay and padding included. */
  durationSeconds?: number;
  /** Encoder delay and padding inside `durationSeconds` that gapless playback trims (MP3 LAME tag). */
  paddingSeconds?: number;
  /** Whether a video has an audio track (when the container says). */
  hasAudio?: boolean;
  pages?: number;
  /** Each PDF page's size in points, rotation applied. */
  pageSizes?: { width: number; height: number }[];
  /** Decoded text of a text file, at most MAX_TEXT_BYTES of it. */
  text?: string;
  /** True when `text` holds only the first MAX_TEXT_BYTES of the file. */
  textTruncated?: boolean;
}

export type MediaProblem = "unsupported" | "corrupt" | "too-large";

/** A medium that cannot be used: the file store marks the file FAILED, requests answer 400. */
export class MediaProbeError extends Error {
  constructor(
    readonly problem: MediaProblem,
    message: string,
  ) {
    super(message);
    this.name = "MediaProbeError";
  }
}

/** PDFs are parsed whole by pdf-lib (in pdf-worker.mjs); the service's own limit is 50 MB. */
export const MAX_PDF_BYTES = 50 * 1024 * 1024;
/** Text kept from a text file: enough for any prompt (the largest input limit is ~1M tokens). */
export const MAX_TEXT_BYTES = 4 * 1024 * 1024;
/** image-size needs only the header; 512 KiB covers JPEGs with large EXIF blocks. */
const IMAGE_HEADER_BYTES = 512 * 1024;

const TEXT_APPLICATION_TYPES = new Set([
  "application/json",
  "application/ld+json",
  // JSON Lines, the input and results of batch mode, under the names clients send.
  "application/jsonl",
  "application/x-jsonl",
  "application/jsonlines",
  "application/x-jsonlines",
  "application/ndjson",
  "application/x-ndjson",
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/typescript",
  "application/x-typescript",
  "application/x-python",
  "application/x-python-code",
  "application/x-sh",
  "application/x-yaml",
  "application/yaml",
  "application/sql",
  "application/rtf",
  "application/x-tex",
]);

/** What kind of medium a MIME type names, or undefined when it is none the engine reads. */
export function mediaKindOf(mimeType: string): MediaKind | undefined {
  const essence = essenceOf(mimeType);
  if (essence.startsWith("image/")) return "image";
  if (essence.startsWith("audio/")) return "audio";
  if (essence.startsWith("video/")) return "video";
  if (essence === "application/pdf") return "document";
  if (essence.startsWith("text/") || TEXT_APPLICATION_TYPES.has(essence)) return "text";
  return undefined;
}

/**
 * Reads what counting and generation need from a medium given as a file path or as bytes.
 * Throws MediaProbeError for unsupported, corrupt or oversized media; reads of big files are
 * bounded (headers for images, streaming parse for audio/video, capped PDFs and text).
 */
export async function probeMedia(
  input: { path: string } | { bytes: Uint8Array },
  mimeType: string,
  signal?: AbortSignal,
): Promise<ProbedMedia> {
  signal?.throwIfAborted();
  const kind = mediaKindOf(mimeType);
  if (!kind) throw new MediaProbeError("unsupported", `Unsupported MIME type: ${mimeType}`);
  const sizeBytes = "bytes" in input ? input.bytes.byteLength : (await stat(input.path)).size;
  if (sizeBytes === 0) throw new MediaProbeError("corrupt", `The ${kind} is empty (0 bytes).`);
  const base = { kind, mimeType, sizeBytes };
  let result: ProbedMedia;
  switch (kind) {
    case "image":
      result = { ...base, ...(await probeImage(input, mimeType)) };
      break;
    case "audio":
    case "video":
      result = {
        ...base,
        ...(rawPcmDuration(mimeType, sizeBytes) ?? (await probeTimed(input, mimeType, kind))),
      };
      break;
    case "document":
      result = { ...base, ...(await probePdf(input, sizeBytes)) };
      break;
    case "text":
      result = { ...base, ...(await probeText(input, mimeType)) };
      break;
  }
  signal?.throwIfAborted();
  return result;
}

/**
 * Raw 16-bit PCM (`audio/L16`, `audio/pcm`) has no header to read: its length is its size over
 * the rate and channels its MIME type names. This is what speech answers carry
 * (`audio/L16;codec=pcm;rate=24000`), so a chat sends them back in its history.
 */
function rawPcmDuration(
  mimeType: string,
  sizeBytes: number,
): Pick<ProbedMedia, "durationSeconds"> | null {
  const essence = essenceOf(mimeType);
  if (essence !== "audio/l16" && essence !== "audio/pcm") return null;
  const parameter = (name: string) =>
    new RegExp(`;\\s*${name}\\s*=\\s*"?(\\d{1,9})"?`, "i").exec(mimeType)?.[1];
  const rate = Number(parameter("rate") ?? (essence === "audio/pcm" ? 16_000 : 0));
  const channels = Number(parameter("channels") ?? 1);
  if (!rate || !channels)
    throw new MediaProbeError(
      "unsupported",
      `${mimeType} needs its sample rate (for example audio/L16;rate=24000).`,
    );
  if (sizeBytes % (2 * channels) !== 0)
    throw new MediaProbeError(
      "corrupt",
      `The ${mimeType} audio is ${sizeBytes} bytes, not whole 16-bit samples.`,
    );
  return { durationSeconds: sizeBytes / (2 * channels * rate) };
}

function essenceOf(mimeType: string): string {
  return (mimeType.split(";")[0] ?? "").trim().toLowerCase();
}

async function probeImage(
  input: { path: string } | { bytes: Uint8Array },
  mimeType: string,
): Promise<Pick<ProbedMedia, "width" | "height">> {
  const bytes = "bytes" in input ? input.bytes : await readHead(input.path, IMAGE_HEADER_BYTES);
  let size;
  try {
    size = imageSize(bytes);
  } catch (error) {
    // image-size reads baseline and progressive JPEGs only: the frame header of any other.
    const frame = jpegFrameSize(bytes);
    if (frame) return frame;
    throw new MediaProbeError(
      "corrupt",
      `The image is not a readable ${mimeType} image (${reason(error)}).`,
    );
  }
  if (!size.width || !size.height)
    throw new MediaProbeError("corrupt", `The ${mimeType} image has no dimensions.`);
  // EXIF orientations 5–8 rotate the picture by 90 degrees.
  const rotated = size.orientation !== undefined && size.orientation >= 5;
  return rotated
    ? { width: size.height, height: size.width }
    : { width: size.width, height: size.height };
}

type TimedFacts = Pick<
  ProbedMedia,
  "durationSeconds" | "paddingSeconds" | "hasAudio" | "width" | "height"
>;

/** AAC as a raw ADTS stream, whose length is read frame by frame (audio-frames.ts). */
const ADTS_TYPES = new Set(["audio/aac", "audio/aacp", "audio/x-aac", "audio/x-hx-aac-adts"]);
const MP3_TYPES = new Set(["audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg-3"]);

async function probeTimed(
  input: { path: string } | { bytes: Uint8Array },
  mimeType: string,
  kind: "audio" | "video",
): Promise<TimedFacts> {
  // MP4/MOV first: music-metadata takes their duration only from an audio track.
  let movie;
  try {
    movie = await readMovieFacts(input);
  } catch {
    movie = undefined;
  }
  if (movie)
    return kind === "video"
      ? {
          durationSeconds: movie.durationSeconds,
          hasAudio: movie.hasAudio,
          ...(movie.width && movie.height ? { width: movie.width, height: movie.height } : {}),
        }
      : { durationSeconds: movie.durationSeconds };

  const { parseBuffer, parseFile } = await import("music-metadata");
  const options = { duration: true, skipCovers: true };
  let metadata;
  try {
    metadata =
      "bytes" in input
        ? await parseBuffer(
            input.bytes,
            { mimeType: essenceOf(mimeType), size: input.bytes.byteLength },
            options,
          )
        : await parseFile(input.path, options);
  } catch (error) {
    throw new MediaProbeError(
      "corrupt",
      `The ${kind} is not a readable ${mimeType} file (${reason(error)}).`,
    );
  }
  const duration = metadata.format.duration;
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) {
    throw new MediaProbeError(
      "corrupt",
      `Could not determine the duration of the ${mimeType} ${kind}.`,
    );
  }
  const result: TimedFacts = { durationSeconds: duration };
  const essence = essenceOf(mimeType);
  if (ADTS_TYPES.has(essence))
    result.durationSeconds = (await adtsDurationSeconds(input)) ?? duration;
  if (MP3_TYPES.has(essence)) {
    const padding = await mp3PaddingSeconds(input);
    if (padding !== undefined && padding < duration) result.paddingSeconds = padding;
  }
  if (kind === "video") {
    const picture = (metadata.format.trackInfo ?? []).find((track) => track.video)?.video;
    if (picture?.pixelWidth && picture.pixelHeight) {
      result.width = picture.pixelWidth;
      result.height = picture.pixelHeight;
    }
    const tracks = metadata.format.trackInfo ?? [];
    // Matroska track type 2 is audio; other containers carry an `audio` block per track.
    const audioTrack = tracks.some(
      (track) => track.audio !== undefined || (track.type as number | undefined) === 2,
    );
    const hasAudio = metadata.format.hasAudio ?? (tracks.length ? audioTrack : undefined);
    if (hasAudio !== undefined) result.hasAudio = hasAudio || audioTrack;
  }
  return result;
}

async function probePdf(
  input: { path: string } | { bytes: Uint8Array },
  sizeBytes: number,
): Promise<Pick<ProbedMedia, "pages" | "pageSizes">> {
  if (sizeBytes > MAX_PDF_BYTES) {
    throw new MediaProbeError(
      "too-large",
      `The PDF is ${sizeBytes} bytes; PDFs up to ${MAX_PDF_BYTES} bytes (50 MB) are supported.`,
    );
  }
  // Read in a worker: parsing takes seconds of CPU on a large document (or on junk that only
  // starts like one), which the request thread must not spend.
  let pageSizes: { width: number; height: number }[];
  try {
    pageSizes = await pdfPageSizes(
      "bytes" in input ? input : { path: input.path, limit: MAX_PDF_BYTES },
    );
  } catch (error) {
    if (!(error instanceof PdfReadError)) throw error;
    throw new MediaProbeError("corrupt", `The PDF could not be read (${error.message}).`);
  }
  if (pageSizes.length < 1) throw new MediaProbeError("corrupt", "The PDF has no pages.");
  return { pages: pageSizes.length, pageSizes };
}

async function probeText(
  input: { path: string } | { bytes: Uint8Array },
  mimeType: string,
): Promise<Pick<ProbedMedia, "text" | "textTruncated">> {
  const whole = "bytes" in input ? input.bytes : await readHead(input.path, MAX_TEXT_BYTES + 1);
  const truncated = whole.byteLength > MAX_TEXT_BYTES;
  const bytes = truncated ? whole.subarray(0, MAX_TEXT_BYTES) : whole;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(mimeType)?.[1] ?? "utf-8";
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new MediaProbeError(
      "unsupported",
      `Unsupported text charset "${charset}" in ${mimeType}.`,
    );
  }
  let text: string;
  try {
    // stream: a truncated file may end inside a multi-byte character; that tail is dropped.
    text = decoder.decode(bytes, { stream: truncated });
  } catch {
    throw new MediaProbeError(
      "corrupt",
      `The ${essenceOf(mimeType)} file is not valid ${charset} text.`,
    );
  }
  return truncated ? { text, textTruncated: true } : { text };
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}
