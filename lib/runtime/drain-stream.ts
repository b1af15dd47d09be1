/**
 * Reads and discards what is left of a request body, up to a limit, so an error answered
 * mid-upload reaches a client that is still sending instead of a reset connection.
 */
export async function drainStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<void> {
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
      if (seen > limit) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away; nothing to drain.
  }
}
