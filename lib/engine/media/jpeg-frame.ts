/**
 * The picture size of a JPEG from its frame header (ITU T.81 B.2.2), every coding process
 * included: image-size reads baseline and progressive frames only, and runs off the end of an
 * arithmetic-coded one (SOF9 to SOF15), which the service reads (a 272 × 138 SOF9 JPEG counted
 * 258 on 2.0 Flash-Lite, recorded). No EXIF orientation: a caller that needs it reads it apart.
 */

/** Markers without a length field: TEM, RST0 to RST7, SOI and EOI. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);
}

/** SOF0 to SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Width and height from the first frame header, or undefined when there is none to read. */
export function jpegFrameSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    // Fill bytes: any number of 0xFF before a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (isStandalone(marker)) {
      offset += 2;
      continue;
    }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (isFrameHeader(marker)) {
      if (offset + 9 > bytes.length) return undefined;
      const height = (bytes[offset + 5]! << 8) | bytes[offset + 6]!;
      const width = (bytes[offset + 7]! << 8) | bytes[offset + 8]!;
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    // The scan starts before any frame header: nothing more to find.
    if (marker === 0xda || length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}
