import "server-only";
import type { Backend } from "@/lib/gemini/backend";
import { createLocalBackend } from "@/lib/engine/local-backend";
import { database } from "./database";
import { serverEnv } from "./env";
import { logger } from "./logger";

const holder = globalThis as typeof globalThis & { genstudioBackend?: Backend };

/** The backend chosen once from configuration: the upstream when a key is set, else local. */
export function backend(): Backend {
  if (!holder.genstudioBackend) {
    const env = serverEnv();
    if (env.mode === "upstream") {
      throw new Error("Upstream mode is not available in this build yet.");
    }
    holder.genstudioBackend = createLocalBackend({ db: database(), dataDir: env.dataDir, fileQuotaBytes: env.fileQuotaBytes, onError: (message, error) => logger.error(message, error) });
  }
  return holder.genstudioBackend;
}
