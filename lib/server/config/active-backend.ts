import "server-only";
import type { Backend } from "@/lib/gemini/backend/contract";
import { createLocalBackend } from "@/lib/engine/local-backend";
import { createUpstreamBackend } from "../upstream/upstream-backend";
import { dataStores } from "../persistence/database-handle";
import { serverEnv } from "./env";
import { logger } from "./logger";
import { recordAnswerUsage, answerFacts } from "../usage/answer-usage";
import { ownerCaller } from "../usage/owner-caller";

/** How often an instance offers to sweep expired files, caches and upload sessions. */
const HOUSEKEEPING_INTERVAL_MS = 60_000;

const holder = globalThis as typeof globalThis & { genstudioBackend?: Promise<Backend> };

async function createBackend(): Promise<Backend> {
  const env = serverEnv();
  const stores = await dataStores();
  if (env.mode === "upstream" && env.upstream) {
    return createUpstreamBackend({
      settings: env.upstream,
      ownership: stores.ownership,
      uploadSessions: stores.upstreamUploads,
      cacheQuota: env.quotas.cache,
    });
  }
  return createLocalBackend({
    stores,
    dataDir: env.dataDir,
    fileQuotaBytes: env.fileQuotaBytes,
    outputTokensPerSecond: env.localOutputTokensPerSecond,
    cacheQuota: env.quotas.cache,
    sweepIntervalMs: HOUSEKEEPING_INTERVAL_MS,
    // One token a minute shared by every instance: whoever takes it sweeps.
    housekeepingTurn: async () =>
      (
        await stores.limits.take(
          "housekeeping",
          { requestsPerMinute: 60_000 / HOUSEKEEPING_INTERVAL_MS, burst: 1 },
          Date.now(),
        )
      ).taken,
    onError: (message, error) => logger.error(message, error),
    // A batch's answers count for its workspace and person (the key it was made with is not kept).
    onBatchAnswer: ({ ownerId, model, response }) =>
      recordAnswerUsage(ownerCaller(ownerId), model, response.usageMetadata, answerFacts(response)),
  });
}

/** The backend chosen once from configuration: the upstream when a key is set, else local. */
export function backend(): Promise<Backend> {
  if (!holder.genstudioBackend) {
    const creating = createBackend();
    creating.catch(() => {
      if (holder.genstudioBackend === creating) holder.genstudioBackend = undefined;
    });
    holder.genstudioBackend = creating;
  }
  return holder.genstudioBackend;
}
