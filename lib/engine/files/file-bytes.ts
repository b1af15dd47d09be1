/**
 * A stored file's bytes as a web stream for a download: read a piece at a time as the client
 * takes them, never the whole file at once. The file is opened before the stream is handed
 * out, so a missing file fails the request rather than the stream.
 */
import fs from "node:fs/promises";

const PIECE_BYTES = 256 * 1024;

export async function openFileBytes(filePath: string): Promise<ReadableStream<Uint8Array>> {
  const handle = await fs.open(filePath, "r");
  let position = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const piece = new Uint8Array(PIECE_BYTES);
          const { bytesRead } = await handle.read(piece, 0, PIECE_BYTES, position);
          if (bytesRead === 0) {
            await close();
            controller.close();
            return;
          }
          position += bytesRead;
          controller.enqueue(piece.subarray(0, bytesRead));
        } catch (error) {
          await close();
          controller.error(error);
        }
      },
      async cancel() {
        await close();
      },
    },
    { highWaterMark: 0 },
  );
}
