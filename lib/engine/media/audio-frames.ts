/**
 * What a decoder makes of two audio formats whose headers music-metadata reads short: an ADTS
 * AAC stream's length (counted frame by frame; the library estimates it from the first
 * frames, 0.70 s for a 0.83 s clip) and the encoder delay and padding an MP3's LAME tag names
 * (gapless playback trims them; some of the service's models do). Reads frame headers only.
 */
import { open } from "node:fs/promises";

type Input = { path: string } | { bytes: Uint8Array };

/** Reads `length` bytes at `offset` (fewer at the end). */
type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

const ADTS_RATES = [
  96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000,
  7_350,
];
/** Bytes read at a time while walking frames. */
const WINDOW = 64 * 1024;

async function withReader<T>(
  input: Input,
  work: (read: ReadAt, size: number) => Promise<T>,
): Promise<T> {
  if ("bytes" in input) {
    const bytes = input.bytes;
    return work(
      async (offset, length) => bytes.subarray(offset, Math.min(bytes.byteLength, offset + length)),
      bytes.byteLength,
    );
  }
  const handle = await open(input.path, "r");
  try {
    const { size } = await handle.stat();
    return await work(async (offset, length) => {
      const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return buffer.subarray(0, bytesRead);
    }, size);
  } finally {
    await handle.close();
  }
}

/** Length of an ID3v2 tag at the start (0 without one). */
async function id3Length(read: ReadAt): Promise<number> {
  const head = await read(0, 10);
  if (head.length < 10 || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return 0;
  // A syncsafe integer: 7 bits a byte.
  const size =
    ((head[6]! & 0x7f) << 21) |
    ((head[7]! & 0x7f) << 14) |
    ((head[8]! & 0x7f) << 7) |
    (head[9]! & 0x7f);
  const footer = head[5]! & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * Seconds of an ADTS AAC stream: its frames' samples over the rate. Undefined when the medium
 * is no ADTS stream (then the caller's other reading stands).
 */
export async function adtsDurationSeconds(input: Input): Promise<number | undefined> {
  return withReader(input, async (read, size) => {
    let offset = await id3Length(read);
    let window: Uint8Array = new Uint8Array();
    let windowStart = offset;
    let samples = 0;
    let rate = 0;
    while (offset + 7 <= size) {
      if (offset + 7 > windowStart + window.length) {
        windowStart = offset;
        window = await read(offset, WINDOW);
        if (window.length < 7) break;
      }
      const at = offset - windowStart;
      if (window[at] !== 0xff || (window[at + 1]! & 0xf6) !== 0xf0) break;
      const frameRate = ADTS_RATES[(window[at + 2]! >> 2) & 0x0f];
      const length =
        ((window[at + 3]! & 0x03) << 11) | (window[at + 4]! << 3) | (window[at + 5]! >> 5);
      if (!frameRate || length < 7) break;
      rate ||= frameRate;
      samples += 1024 * ((window[at + 6]! & 0x03) + 1);
      offset += length;
    }
    return rate && samples ? samples / rate : undefined;
  });
}

/**
 * Seconds of encoder delay plus padding named by an MP3's LAME tag (in the Xing/Info frame),
 * or undefined without one.
 */
export async function mp3PaddingSeconds(input: Input): Promise<number | undefined> {
  return withReader(input, async (read) => {
    const start = await id3Length(read);
    const frame = await read(start, 4096);
    // The first frame may follow a few bytes of junk after the tag.
    let at = 0;
    while (at + 4 <= frame.length && !(frame[at] === 0xff && (frame[at + 1]! & 0xe0) === 0xe0))
      at += 1;
    if (at + 4 > frame.length) return undefined;
    const version = (frame[at + 1]! >> 3) & 0x03; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const layer = (frame[at + 1]! >> 1) & 0x03; // 1: Layer III
    if (layer !== 1 || version === 1) return undefined;
    const rates = version === 3 ? [44_100, 48_000, 32_000] : [22_050, 24_000, 16_000];
    const rate = (version === 0 ? 0.5 : 1) * (rates[(frame[at + 2]! >> 2) & 0x03] ?? 0);
    if (!rate) return undefined;
    const mono = frame[at + 3]! >> 6 === 3;
    const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
    const crc = (frame[at + 1]! & 0x01) === 0 ? 2 : 0;
    const xing = at + 4 + crc + sideInfo;
    if (xing + 8 > frame.length) return undefined;
    const tag = String.fromCharCode(...frame.subarray(xing, xing + 4));
    if (tag !== "Xing" && tag !== "Info") return undefined;
    const flags = new DataView(frame.buffer, frame.byteOffset).getUint32(xing + 4);
    const lame =
      xing +
      8 +
      (flags & 1 ? 4 : 0) +
      (flags & 2 ? 4 : 0) +
      (flags & 4 ? 100 : 0) +
      (flags & 8 ? 4 : 0);
    // Encoder name (9), revision, lowpass, replay gain (8), flags, bitrate, then delay/padding.
    const field = lame + 21;
    if (field + 3 > frame.length) return undefined;
    const delay = (frame[field]! << 4) | (frame[field + 1]! >> 4);
    const padding = ((frame[field + 1]! & 0x0f) << 8) | frame[field + 2]!;
    return (delay + padding) / rate;
  });
}
