import "server-only";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { BatchOperation } from "@/lib/gemini/types";
import { logger } from "../config/logger";
import { dataStores } from "../persistence/database-handle";
import { answerFacts, recordAnswerUsage } from "./answer-usage";

/**
 * Gateway mode: a batch runs at the upstream, and its answers are first seen when its owner
 * reads the finished batch. Each inline answer's usage is then recorded once (the first read
 * claims the batch, on any instance), for the caller who reads it: the batch's workspace, and
 * its person. Off the request's path. A batch whose results are a file is not counted (its
 * usage is in a file the gateway does not read).
 */
export function noteUpstreamBatch(caller: Caller, batch: BatchOperation): void {
  const responses = batch.response?.inlinedResponses?.inlinedResponses;
  if (!batch.done || !responses?.some((item) => item.response?.usageMetadata)) return;
  void (async () => {
    if (!(await (await dataStores()).usage.claimRecording(`batch:${batch.name}`))) return;
    for (const item of responses)
      if (item.response)
        recordAnswerUsage(
          caller,
          batch.metadata.model,
          item.response.usageMetadata,
          answerFacts(item.response),
        );
  })().catch((error: unknown) => logger.warn("recording a batch's usage failed", error));
}
