import "server-only";
import type { SpendIncrement } from "@/lib/db/stores/limit-store";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { GenerateContentResponse, UsageMetadata } from "@/lib/gemini/types";
import { NANODOLLARS_PER_DOLLAR, spendPeriods } from "@/lib/studio/key-limits";
import { answerCost } from "@/lib/studio/price-table";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";
import { dataStores } from "../persistence/database-handle";

/**
 * Every answer's usage, recorded after the answer and off its path: the tokens and the cost
 * (lib/studio/price-table, the configured prices) of each answer given to a managed key are
 * added to the key's spend of the UTC day and month, one budget across instances (added in
 * the database, never read-modify-written). Increments wait here a moment and are written in
 * one statement; a request never waits for them.
 */

interface PendingSpend {
  increments: Map<string, SpendIncrement>;
  scheduled: boolean;
  flushing: Promise<void> | null;
}

const holder = globalThis as typeof globalThis & { genstudioPendingSpend?: PendingSpend };

function pending(): PendingSpend {
  holder.genstudioPendingSpend ??= { increments: new Map(), scheduled: false, flushing: null };
  return holder.genstudioPendingSpend;
}

function add(
  queue: PendingSpend,
  keyId: string,
  period: string,
  tokens: number,
  nanodollars: number,
) {
  const name = `${keyId}\n${period}`;
  const increment = queue.increments.get(name) ?? { keyId, period, tokens: 0, nanodollars: 0 };
  increment.tokens += tokens;
  increment.nanodollars += nanodollars;
  queue.increments.set(name, increment);
}

/** Writes what is waiting (one statement); resolves when it is written. */
export async function flushAnswerUsage(): Promise<void> {
  const queue = pending();
  while (queue.flushing) await queue.flushing;
  if (queue.increments.size === 0) return;
  const increments = [...queue.increments.values()];
  queue.increments.clear();
  queue.flushing = (async () => {
    try {
      await (await dataStores()).limits.addSpend(increments);
    } catch (error) {
      logger.warn("recording key spend failed; it is kept for the next write", error);
      for (const increment of increments)
        add(queue, increment.keyId, increment.period, increment.tokens, increment.nanodollars);
      throw error;
    } finally {
      queue.flushing = null;
    }
  })();
  await queue.flushing;
}

function schedule(queue: PendingSpend): void {
  if (queue.scheduled) return;
  queue.scheduled = true;
  setTimeout(() => {
    queue.scheduled = false;
    flushAnswerUsage().catch(() => schedule(queue));
  }, 50).unref();
}

/** Records one answer's usage for `caller` (a managed key's spend; nothing else yet). */
export function recordAnswerUsage(
  caller: Caller,
  model: string,
  usage: UsageMetadata | undefined,
  now = Date.now(),
): void {
  if (!caller.key?.managed || !usage) return;
  const tokens = usage.totalTokenCount ?? 0;
  const cost = answerCost(usage, model, serverEnv().prices);
  const nanodollars = Math.round((cost?.amount ?? 0) * NANODOLLARS_PER_DOLLAR);
  if (tokens === 0 && nanodollars === 0) return;
  const queue = pending();
  const { day, month } = spendPeriods(now);
  add(queue, caller.key.id, day, tokens, nanodollars);
  add(queue, caller.key.id, month, tokens, nanodollars);
  schedule(queue);
}

/**
 * The stream as it was, recording the last usage it carried once it ends (finished, failed
 * or left by the client).
 */
export async function* recordingStreamUsage(
  source: AsyncIterable<GenerateContentResponse>,
  caller: Caller,
  model: string,
): AsyncGenerator<GenerateContentResponse> {
  let usage: UsageMetadata | undefined;
  try {
    for await (const chunk of source) {
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
      yield chunk;
    }
  } finally {
    recordAnswerUsage(caller, model, usage);
  }
}
