import "server-only";
import type { Backend } from "@/lib/gemini/backend/contract";
import { createLocalBackend } from "@/lib/engine/local-backend";
import { createEmulator, withEmulator, type Emulator } from "@/lib/engine/emulator";
import { emulatorEnv, scenarioFileError } from "../config/emulator-env";
import { loadReplayFolder } from "../emulator/replay-folder";
import { createUpstreamBackend } from "../upstream/upstream-backend";
import { UpstreamClient } from "../upstream/upstream-client";
import { ExchangeRecorder } from "../emulator/exchange-recorder";
import { dataStores } from "../persistence/database-handle";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";
import { recordAnswerUsage, answerFacts } from "../usage/answer-usage";
import { interactionUsageMetadata } from "../usage/usage-shapes";
import { ownerCaller } from "../usage/owner-caller";

/** How often an instance offers to sweep expired files, caches and upload sessions. */
const HOUSEKEEPING_INTERVAL_MS = 60_000;

const holder = globalThis as typeof globalThis & { genstudioBackend?: Promise<Backend> };

async function createBackend(): Promise<Backend> {
  const env = serverEnv();
  const stores = await dataStores();
  if (env.mode === "upstream" && env.upstream) {
    const recordDir = emulatorEnv().recordDir;
    return createUpstreamBackend({
      settings: env.upstream,
      // GENSTUDIO_RECORD: each exchange with the upstream written as a cassette line.
      ...(recordDir
        ? {
            client: new UpstreamClient(
              env.upstream,
              undefined,
              new ExchangeRecorder(recordDir, env.upstream),
            ),
          }
        : {}),
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
    samplesRepeatably: (ownerId) => emulator.controls.samplesRepeatably(ownerId),
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
    // A background interaction's usage, for the caller who created it, once its run ends.
    onInteractionUsage: ({ caller, model, usage }) =>
      recordAnswerUsage(caller, model, interactionUsageMetadata(usage)),
  });
  return withEmulator(local, emulator);
}

/** The local engine's emulator, from GENSTUDIO_* settings (a bad scenario file stops the start). */
function localEmulator(): Emulator {
  const settings = emulatorEnv();
  let emulator: Emulator;
  try {
    emulator = createEmulator({
      instanceScenarios: settings.instanceScenarios,
      requestLog: { maxEntries: settings.requestLogEntries },
    });
  } catch (error) {
    throw scenarioFileError(process.env.GENSTUDIO_SCENARIOS ?? "", error);
  }
  if (settings.replay) {
    const { dir, ...options } = settings.replay;
    const count = loadReplayFolder(emulator.replay, dir, options);
    logger.info(
      `replaying ${count} cassettes from ${dir} (${options.match} match, ${options.pace} pace, on a miss: ${options.onMiss})`,
    );
  }
  return emulator;
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
