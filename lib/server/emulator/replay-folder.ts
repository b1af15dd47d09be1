import "server-only";
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "@/lib/gemini/api-error";
import { readCassette } from "@/lib/engine/emulator/cassettes/cassette-format";
import type { ReplayOptions, ReplayStore } from "@/lib/engine/emulator/cassettes/replay-store";
import { ConfigurationError } from "../config/env";

/**
 * Loads GENSTUDIO_REPLAY's cassettes at start: each `*.jsonl` at the folder's top answers every
 * caller; each one in a caller's own folder (what GENSTUDIO_RECORD wrote for it, see
 * ownerFolder) answers that caller only. A cassette that is not valid stops the start, naming
 * its file, line and field.
 */
export function loadReplayFolder(store: ReplayStore, dir: string, options: ReplayOptions): number {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw new ConfigurationError(
      `GENSTUDIO_REPLAY: cannot read ${dir} (${(error as Error).message}).`,
    );
  }
  let count = 0;
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name.endsWith(".jsonl")) {
      store.addInstance(entry.name, read(full, entry.name), options);
      count++;
    } else if (entry.isDirectory()) {
      for (const file of fs
        .readdirSync(full)
        .filter((name) => name.endsWith(".jsonl"))
        .sort()) {
        const name = `${entry.name}/${file}`;
        store.addForFolder(entry.name, name, read(path.join(full, file), name), options);
        count++;
      }
    }
  }
  return count;
}

function read(file: string, name: string) {
  try {
    return readCassette(fs.readFileSync(file, "utf8"), name);
  } catch (error) {
    if (error instanceof ApiError)
      throw new ConfigurationError(`GENSTUDIO_REPLAY: ${error.message}`);
    throw error;
  }
}
