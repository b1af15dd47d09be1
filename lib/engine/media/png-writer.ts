/**
 * A minimal PNG writer: 8-bit RGB pixels, one IDAT chunk compressed with zlib on libuv's thread
 * pool, no filters (filter type 0 on every row). Enough for the pictures the local engine
 * draws; Chromium and this engine's own probe read them (picture.test.ts, chat-metadata spec).
 */
import { promisify } from "node:util";
import { crc32, deflate } from "node:zlib";

const deflateAsync = promisify(deflate);

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, tail]);
}

/** PNG bytes of `width` × `height` pixels, `rgb` holding 3 bytes per pixel, row by row. */
export async function encodePng(width: number, height: number, rgb: Uint8Array): Promise<Buffer> {
  if (rgb.length !== width * height * 3) throw new RangeError("rgb must hold 3 bytes per pixel");
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  // compression, filter and interlace methods stay 0
  const rowBytes = width * 3;
  const raw = Buffer.alloc((rowBytes + 1) * height);
  for (let row = 0; row < height; row++)
    raw.set(rgb.subarray(row * rowBytes, (row + 1) * rowBytes), row * (rowBytes + 1) + 1);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", await deflateAsync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
