/**
 * Duration of ISO base media files (MP4, MOV, 3GP) from the movie header. music-metadata reads
 * MP4 durations only from audio tracks, so a silent MP4 would have none. Only box headers and the
 * `moov` box are read: the media data (`mdat`, gigabytes) is skipped by its size.
 */
import { open } from "node:fs/promises";

/** Reads `length` bytes at `offset` (fewer at the end of the medium). */
type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

const MAX_MOOV_BYTES = 64 * 1024 * 1024;

export interface MovieFacts {
  durationSeconds: number;
  hasAudio: boolean;
  hasVideo: boolean;
  /** The video track's picture size from its track header (absent without a video track). */
  width?: number;
  height?: number;
}

/** Movie facts of an ISO BMFF medium given as bytes or a path; undefined when it is not one. */
export async function readMovieFacts(
  input: { path: string } | { bytes: Uint8Array },
): Promise<MovieFacts | undefined> {
  if ("bytes" in input) {
    const bytes = input.bytes;
    return readFrom(
      async (offset, length) => bytes.subarray(offset, Math.min(bytes.byteLength, offset + length)),
      bytes.byteLength,
    );
  }
  const handle = await open(input.path, "r");
  try {
    const { size } = await handle.stat();
    return await readFrom(async (offset, length) => {
      const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(
          buffer,
          filled,
          buffer.length - filled,
          offset + filled,
        );
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    }, size);
  } finally {
    await handle.close();
  }
}

interface Box {
  type: string;
  /** Offset of the payload and its length. */
  start: number;
  length: number;
}

function boxAt(view: DataView, offset: number, limit: number): Box | undefined {
  if (offset + 8 > limit) return undefined;
  let size = view.getUint32(offset);
  const type = String.fromCharCode(
    view.getUint8(offset + 4),
    view.getUint8(offset + 5),
    view.getUint8(offset + 6),
    view.getUint8(offset + 7),
  );
  let header = 8;
  if (size === 1) {
    if (offset + 16 > limit) return undefined;
    size = Number(view.getBigUint64(offset + 8));
    header = 16;
  } else if (size === 0) {
    size = limit - offset;
  }
  if (size < header) return undefined;
  return { type, start: offset + header, length: size - header };
}

async function readFrom(readAt: ReadAt, size: number): Promise<MovieFacts | undefined> {
  const first = await readAt(0, 16);
  if (first.byteLength < 16) return undefined;
  const firstBox = boxAt(new DataView(first.buffer, first.byteOffset, first.byteLength), 0, size);
  if (!firstBox || !["ftyp", "moov", "mdat", "free", "wide", "skip"].includes(firstBox.type))
    return undefined;

  let offset = 0;
  while (offset < size) {
    const head = await readAt(offset, 16);
    const box = boxAt(
      new DataView(head.buffer, head.byteOffset, head.byteLength),
      0,
      size - offset,
    );
    if (!box) return undefined;
    if (box.type === "moov") {
      if (box.length > MAX_MOOV_BYTES) return undefined;
      const moov = await readAt(offset + box.start, box.length);
      return parseMoov(new DataView(moov.buffer, moov.byteOffset, moov.byteLength));
    }
    offset += box.start + box.length;
  }
  return undefined;
}

function children(view: DataView, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let offset = start;
  while (offset < end) {
    const box = boxAt(view, offset, end);
    if (!box || box.start + box.length > end) break;
    boxes.push(box);
    offset = box.start + box.length;
  }
  return boxes;
}

function parseMoov(view: DataView): MovieFacts | undefined {
  let durationSeconds: number | undefined;
  let hasAudio = false;
  let hasVideo = false;
  let picture: { width: number; height: number } | undefined;
  for (const box of children(view, 0, view.byteLength)) {
    if (box.type === "mvhd" && box.length >= 20) {
      const version = view.getUint8(box.start);
      const timescale =
        version === 1 ? view.getUint32(box.start + 20) : view.getUint32(box.start + 12);
      const duration =
        version === 1 ? Number(view.getBigUint64(box.start + 24)) : view.getUint32(box.start + 16);
      if (timescale > 0 && duration > 0 && duration !== 0xffffffff)
        durationSeconds = duration / timescale;
    }
    if (box.type === "trak") {
      const boxes = children(view, box.start, box.start + box.length);
      // The track header ends with the presentation width and height, 16.16 fixed point.
      const header = boxes.find((child) => child.type === "tkhd" && child.length >= 84);
      const size = header && {
        width: view.getUint32(header.start + header.length - 8) / 65536,
        height: view.getUint32(header.start + header.length - 4) / 65536,
      };
      for (const media of boxes.filter((child) => child.type === "mdia")) {
        for (const handler of children(view, media.start, media.start + media.length).filter(
          (child) => child.type === "hdlr",
        )) {
          if (handler.length < 12) continue;
          const kind = String.fromCharCode(
            ...[8, 9, 10, 11].map((index) => view.getUint8(handler.start + index)),
          );
          if (kind === "soun") hasAudio = true;
          if (kind === "vide") {
            hasVideo = true;
            if (!picture && size && size.width > 0 && size.height > 0) picture = size;
          }
        }
      }
    }
  }
  return durationSeconds === undefined
    ? undefined
    : { durationSeconds, hasAudio, hasVideo, ...picture };
}
