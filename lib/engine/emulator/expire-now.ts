/**
 * The emulator's "expire now" of a caller's own file or cached content: its expiry becomes the
 * caller's present (its clock offset included), so it answers the service's 403 at once, drops
 * out of lists, and is swept like any expired resource.
 */
import type { Caller } from "@/lib/gemini/backend/contract";
import type { Storage } from "@/lib/engine/storage";
import { fileIdFrom } from "@/lib/engine/files/file-service";
import { notTheCallers } from "./controls";

export async function expireFileNow(
  storage: Storage,
  caller: Caller,
  name: string,
  now: number,
): Promise<void> {
  let id: string;
  try {
    id = (await storage.files.requireFile(name, caller)).id;
  } catch {
    throw notTheCallers("File", name);
  }
  if (id !== fileIdFrom(name) || !(await storage.files.store.setExpireTime(id, now, now)))
    throw notTheCallers("File", name);
}

export async function expireCachedContentNow(
  storage: Storage,
  caller: Caller,
  name: string,
  now: number,
): Promise<void> {
  try {
    await storage.caches.get(name, caller);
  } catch {
    throw notTheCallers("CachedContent", name);
  }
  await storage.caches.store.updateExpiry(name.replace(/^cachedContents\//, ""), now, now);
}
