import "server-only";
import type { Backend } from "@/lib/gemini/backend/contract";
import { createLocalBackend } from "@/lib/engine/local-backend";
import { createUpstreamBackend } from "../upstream/upstream-backend";
import { database } from "../persistence/database-handle";
import { serverEnv } from "./env";
import { logger } from "./logger";

const holder = globalThis as typeof globalThis & { genstudioBackend?: Backend };

/** The backend chosen once from configuration: the upstream when a key is set, else local. */
export function backend(): Backend {
  if (!holder.genstudioBackend) {
    const env = serverEnv();
    if (env.mode === "upstream" && env.upstream) {
      holder.genstudioBackend = createUpstreamBackend({ settings: env.upstream, db: database() });
      return holder.genstudioBackend;
    }
    holder.genstudioBackend = createLocalBackend({
      db: database(),
      dataDir: env.dataDir,
      fileQuotaBytes: env.fileQuotaBytes,
      onError: (message, error) => logger.error(message, error),
    });
  }
  return holder.genstudioBackend;
}
