// The first bytes of a file, read in place: plain JS so the unbundled PDF worker and the
// request thread's probe share it.
import { open } from "node:fs/promises";

/** The first `limit` bytes of the file at `path` (all of it when shorter). */
export async function readHead(path, limit) {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const buffer = new Uint8Array(Math.min(size, limit));
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } finally {
    await handle.close();
  }
}
