import "server-only";
import type { Backend } from "@/lib/gemini/backend/contract";
import { createLocalBackend } from "@/lib/engine/local-backend";
import { createEmulator, withEmulator, type Emulator } from "@/lib/engine/emulator";
import { emulatorEnv, scenarioFileError } from "./emulator-env";
import { createUpstreamBackend } from "../upstream/upstream-backend";
import { dataStores } from "../persistence/database-handle";
import { serverEnv } from "./env";
import { logger } from "./logger";

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
  const emulator = localEmulator();
  const local = createLocalBackend({
    // Each caller's clock and file processing as its emulator controls say.
    now: emulator.controls.now,
    processingPlan: (file) => emulator.controls.processingPlan(file),
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
  });
  return withEmulator(local, emulator);
}

/** The local engine's emulator, from GENSTUDIO_* settings (a bad scenario file stops the start). */
function localEmulator(): Emulator {
  const settings = emulatorEnv();
  try {
    return createEmulator({
      instanceScenarios: settings.instanceScenarios,
      requestLog: { maxEntries: settings.requestLogEntries },
    });
  } catch (error) {
    throw scenarioFileError(process.env.GENSTUDIO_SCENARIOS ?? "", error);
  }
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
