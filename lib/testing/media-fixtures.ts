/**
 * Small, valid media files written by code at test time (no binary fixtures in the repository):
 * PNG, WAV, PDF, WebM and MP4 with known dimensions, durations and page counts.
 */
import { deflateSync } from "node:zlib";
import { PDFDocument } from "pdf-lib";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index++) {
    let value = index;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[index] = value >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of the given size (a gradient, so the data is not trivially constant). */
export function makePng(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255) / Math.max(1, width - 1);
      raw[row + 2 + x * 3] = (y * 255) / Math.max(1, height - 1);
      raw[row + 3 + x * 3] = 128;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", new Uint8Array()),
  ]);
}

/** A 16-bit mono PCM WAV of a 440 Hz tone lasting `seconds`. */
export function makeWav(seconds: number, sampleRate = 8000): Uint8Array {
  const samples = Math.round(seconds * sampleRate);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index++) {
    buffer.writeInt16LE(
      Math.round(Math.sin((2 * Math.PI * 440 * index) / sampleRate) * 8000),
      44 + index * 2,
    );
  }
  return buffer;
}

/** A PDF with `pages` pages of `size` points (300 × 200 unless given), each saying its number. */
export async function makePdf(
  pages: number,
  size: [number, number] = [300, 200],
): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let index = 1; index <= pages; index++) {
    const page = document.addPage(size);
    page.drawText(`Page ${index}`, { x: 40, y: 100, size: 24 });
  }
  return document.save();
}

function ebmlSize(size: number): Buffer {
  // 8-byte size field: 0x01 marker then 7 bytes of length.
  const buffer = Buffer.alloc(8);
  buffer[0] = 0x01;
  buffer.writeUIntBE(size, 2, 6);
  return buffer;
}

function ebml(id: number[], ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  return Buffer.concat([Buffer.from(id), ebmlSize(body.length), body]);
}

function ebmlUint(id: number[], value: number): Buffer {
  const body = Buffer.alloc(4);
  body.writeUInt32BE(value);
  return ebml(id, body);
}

function ebmlFloat(id: number[], value: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeDoubleBE(value);
  return ebml(id, body);
}

function ebmlString(id: number[], value: string): Buffer {
  return ebml(id, Buffer.from(value, "ascii"));
}

/** A WebM container (EBML header, Segment Info with Duration, Tracks) of `seconds`; frames are not encoded. */
export function makeWebm(
  seconds: number,
  options: { width?: number; height?: number; audio?: boolean } = {},
): Uint8Array {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    ebmlUint([0x42, 0x86], 1),
    ebmlUint([0x42, 0xf7], 1),
    ebmlUint([0x42, 0xf2], 4),
    ebmlUint([0x42, 0xf3], 8),
    ebmlString([0x42, 0x82], "webm"),
    ebmlUint([0x42, 0x87], 4),
    ebmlUint([0x42, 0x85], 2),
  );
  const info = ebml(
    [0x15, 0x49, 0xa9, 0x66],
    ebmlUint([0x2a, 0xd7, 0xb1], 1_000_000),
    ebmlFloat([0x44, 0x89], seconds * 1000),
    ebmlString([0x4d, 0x80], "genstudio-test"),
    ebmlString([0x57, 0x41], "genstudio-test"),
  );
  const videoTrack = ebml(
    [0xae],
    ebmlUint([0xd7], 1),
    ebmlUint([0x73, 0xc5], 1),
    ebmlUint([0x83], 1),
    ebmlString([0x86], "V_VP8"),
    ebml([0xe0], ebmlUint([0xb0], options.width ?? 320), ebmlUint([0xba], options.height ?? 240)),
  );
  const audioTrack = ebml(
    [0xae],
    ebmlUint([0xd7], 2),
    ebmlUint([0x73, 0xc5], 2),
    ebmlUint([0x83], 2),
    ebmlString([0x86], "A_OPUS"),
    ebml([0xe1], ebmlFloat([0xb5], 48_000), ebmlUint([0x9f], 2)),
  );
  const tracks = ebml([0x16, 0x54, 0xae, 0x6b], videoTrack, ...(options.audio ? [audioTrack] : []));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], info, tracks)]);
}

function box(type: string, ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, "ascii");
  return Buffer.concat([head, body]);
}

function handlerTrack(
  handler: "vide" | "soun",
  picture?: { width: number; height: number },
): Buffer {
  const hdlr = Buffer.alloc(25);
  hdlr.write(handler, 8, "ascii");
  // Track header, version 0: its last 8 bytes are the width and height, 16.16 fixed point.
  const tkhd = Buffer.alloc(84);
  if (picture) {
    tkhd.writeUInt32BE(picture.width * 65536, 76);
    tkhd.writeUInt32BE(picture.height * 65536, 80);
  }
  return box("trak", ...(picture ? [box("tkhd", tkhd)] : []), box("mdia", box("hdlr", hdlr)));
}

/**
 * An MP4 (ftyp, optional mdat before the moov as cameras write it, moov with mvhd and track
 * handlers) whose movie header says `seconds`; the samples are not encoded.
 */
export function makeMp4(
  seconds: number,
  options: { audio?: boolean; mediaDataBytes?: number; width?: number; height?: number } = {},
): Uint8Array {
  const timescale = 1000;
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(0, 0); // version 0, flags
  mvhd.writeUInt32BE(0, 4); // creation time
  mvhd.writeUInt32BE(0, 8); // modification time
  mvhd.writeUInt32BE(timescale, 12);
  mvhd.writeUInt32BE(Math.round(seconds * timescale), 16);
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  const matrix = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000];
  matrix.forEach((value, index) => mvhd.writeUInt32BE(value, 36 + index * 4));
  mvhd.writeUInt32BE(2, 96); // next track id
  const ftyp = box(
    "ftyp",
    Buffer.from("isom", "ascii"),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from("isomiso2mp41", "ascii"),
  );
  const picture =
    options.width && options.height ? { width: options.width, height: options.height } : undefined;
  const tracks = [handlerTrack("vide", picture), ...(options.audio ? [handlerTrack("soun")] : [])];
  const mediaData = options.mediaDataBytes
    ? [box("mdat", Buffer.alloc(options.mediaDataBytes, 0x5a))]
    : [];
  return Buffer.concat([ftyp, ...mediaData, box("moov", box("mvhd", mvhd), ...tracks)]);
}

const ADTS_RATE_INDEX: Record<number, number> = { 48_000: 3, 44_100: 4, 24_000: 6, 16_000: 8 };

/** A raw ADTS AAC stream (mono, AAC LC) of `frames` frames of 1024 samples; no real audio. */
export function makeAdts(frames: number, sampleRate = 16_000): Uint8Array {
  const payload = 9;
  const length = 7 + payload;
  const frame = Buffer.alloc(length);
  frame[0] = 0xff;
  frame[1] = 0xf1; // MPEG-4, layer 0, no CRC
  frame[2] = (1 << 6) | ((ADTS_RATE_INDEX[sampleRate] ?? 8) << 2); // AAC LC, rate, channels high bit 0
  frame[3] = (1 << 6) | ((length >> 11) & 0x03); // mono
  frame[4] = (length >> 3) & 0xff;
  frame[5] = ((length & 0x07) << 5) | 0x1f; // buffer fullness 0x7ff
  frame[6] = 0xfc; // one raw data block
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/**
 * An MPEG-2 Layer III stream at 16 kHz mono (576 samples a frame) of `frames` frames after an
 * Info frame whose LAME tag names `delay` and `padding` samples; the frames hold silence-free
 * zeros, enough for a header reader.
 */
export function makeMp3(frames: number, delay: number, padding: number): Uint8Array {
  const frameBytes = 180; // 40 kbps at 16 kHz
  const header = [0xff, 0xf3, 0x58, 0xc0]; // MPEG-2, Layer III, no CRC, 40 kbps, 16 kHz, mono
  const info = Buffer.alloc(frameBytes);
  info.set(header, 0);
  const tag = 4 + 9; // after the header and a mono MPEG-2 side info
  info.write("Info", tag, "ascii");
  info.writeUInt32BE(0x0f, tag + 4); // frames, bytes, TOC and quality present
  info.writeUInt32BE(frames, tag + 8);
  info.writeUInt32BE(frames * frameBytes, tag + 12);
  const lame = tag + 8 + 4 + 4 + 100 + 4;
  info.write("LAME3.100", lame, "ascii");
  info[lame + 21] = delay >> 4;
  info[lame + 22] = ((delay & 0x0f) << 4) | (padding >> 8);
  info[lame + 23] = padding & 0xff;
  const audio = Buffer.alloc(frameBytes);
  audio.set(header, 0);
  return Buffer.concat([info, ...Array.from({ length: frames }, () => audio)]);
}
