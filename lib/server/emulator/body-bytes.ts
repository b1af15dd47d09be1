import "server-only";
import { ApiError } from "@/lib/gemini/api-error";

/**
 * A request body's bytes (a cassette, or a request a cassette may answer), refused with the
 * service's 413 as soon as it passes `limit` (its declared length first), before it is held.
 */
export async function readBodyBytes(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    new ApiError(
      413,
      "INVALID_ARGUMENT",
      `Request payload size exceeds the limit: ${limit} bytes.`,
    );
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw tooLarge();
  const pieces: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge();
      }
      pieces.push(value);
    }
  }
  return new Uint8Array(Buffer.concat(pieces));
}
