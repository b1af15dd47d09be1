/** Types of read-head.mjs (plain JS so the unbundled PDF worker imports it). */

/** The first `limit` bytes of the file at `path` (all of it when shorter). */
export function readHead(path: string, limit: number): Promise<Uint8Array>;
