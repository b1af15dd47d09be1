/**
 * Base64 decoded in slices. Buffer.from(text, "base64") of a document of megabytes sent inline
 * decodes all of it, and fills memory fresh for all of it, in one call on the request's
 * thread. Here the bytes are written a slice at a time into a buffer made for them, whose
 * memory is touched only as it is written, with other work getting its turn between slices.
 */
import { isBase64Bytes, piecedText } from "@/lib/runtime/pieced-text";
import { TimeSlices } from "@/lib/runtime/time-slices";

/** Characters decoded at once: whole 4-character groups, 768 KiB of bytes. */
const SLICE_CHARACTERS = 1_048_576;
/** A slice of plain base64 (either alphabet): its groups decode the same alone as in the whole. */
const PLAIN = /^[A-Za-z0-9+/_-]*$/;
const PLAIN_LAST = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** What Buffer.from(text, "base64") gives, decoded in slices. */
export async function decodeBase64InSlices(
  text: string,
  slices: TimeSlices = new TimeSlices(),
): Promise<Buffer> {
  if (text.length <= SLICE_CHARACTERS) return Buffer.from(text, "base64");
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, "base64"));
  let written = 0;
  for (let from = 0; from < text.length; from += SLICE_CHARACTERS) {
    await slices.pause();
    const slice = text.slice(from, from + SLICE_CHARACTERS);
    const last = from + SLICE_CHARACTERS >= text.length;
    // Spaces, padding inside or stray characters: the decoder's own reading of the whole.
    if (!(last ? PLAIN_LAST : PLAIN).test(slice)) return Buffer.from(text, "base64");
    written += bytes.write(slice, written, "base64");
  }
  return written === bytes.length ? bytes : bytes.subarray(0, written);
}

/**
 * The bytes of inline data: the bytes it was read as when its member holds them (a large body
 * read in the body reader worker, pieced text of bytes), else its base64 decoded in slices.
 */
export async function inlineDataBytes(
  inlineData: { data: string },
  slices: TimeSlices = new TimeSlices(),
): Promise<Buffer> {
  const pieces = piecedText(inlineData, "data");
  if (pieces?.length && pieces.every(isBase64Bytes)) {
    const views = pieces.map((piece) =>
      Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength),
    );
    return views.length === 1 ? views[0]! : Buffer.concat(views);
  }
  return decodeBase64InSlices(inlineData.data, slices);
}
