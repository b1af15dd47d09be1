import "server-only";
import type { SpendIncrement } from "@/lib/db/stores/limit-store";
import { USAGE_TOTAL_FIELDS } from "@/lib/db/stores/usage-rollup";
import type { UsageIncrement } from "@/lib/db/stores/usage-store";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { GenerateContentResponse, UsageMetadata } from "@/lib/gemini/types";
import { NANODOLLARS_PER_DOLLAR, spendPeriods } from "@/lib/studio/key-limits";
import { answerCost } from "@/lib/studio/price-table";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";
import { addAnswerUsage, observationOf } from "../logs/request-observation";
import { countAnswerTokens } from "../observability/studio-metrics";
import { dataStores } from "../persistence/database-handle";

/**
 * The one usage path: every answer's usage, recorded after the answer and off its path, by one
 * call of whatever gave the answer (`recordAnswerUsage`, or `recordingStreamUsage` around a
 * stream). Its tokens (prompt, cached, output, thought) and cost (lib/studio/price-table, the
 * configured prices) go to
 * - the usage ledger, per UTC day, workspace, person, key and model (the Usage page);
 * - a managed key's spend of the day and month, one budget across instances;
 * - the metrics' token and cost counters, and the request's span and log entry when the answer
 *   belongs to an API request under way.
 * Database increments wait here a moment and are written together (added in the database,
 * never read-modify-written); a request never waits for them.
 */

interface PendingUsage {
  spend: Map<string, SpendIncrement>;
  ledger: Map<string, UsageIncrement>;
  scheduled: boolean;
  flushing: Promise<void> | null;
}

const holder = globalThis as typeof globalThis & { genstudioPendingUsage?: PendingUsage };

function pending(): PendingUsage {
  holder.genstudioPendingUsage ??= {
    spend: new Map(),
    ledger: new Map(),
    scheduled: false,
    flushing: null,
  };
  return holder.genstudioPendingUsage;
}

function addSpend(queue: PendingUsage, increment: SpendIncrement) {
  const name = `${increment.keyId}\n${increment.period}`;
  const sum = queue.spend.get(name);
  if (!sum) queue.spend.set(name, { ...increment });
  else {
    sum.tokens += increment.tokens;
    sum.nanodollars += increment.nanodollars;
  }
}

function addLedger(queue: PendingUsage, increment: UsageIncrement) {
  const name = [
    increment.day,
    increment.ownerId,
    increment.personId,
    increment.keyId,
    increment.model,
  ].join("\n");
  const sum = queue.ledger.get(name);
  if (!sum) queue.ledger.set(name, { ...increment });
  else for (const field of USAGE_TOTAL_FIELDS) sum[field] += increment[field];
}

/** Writes what is waiting (a statement for spend, one for the ledger); resolves when written. */
export async function flushAnswerUsage(): Promise<void> {
  const queue = pending();
  while (queue.flushing) await queue.flushing;
  if (queue.spend.size === 0 && queue.ledger.size === 0) return;
  // In the order of their names, so instances writing at once lock rows in one order (on
  // PostgreSQL, two that did not could each wait on the other, and one would fail).
  const spend = [...queue.spend.keys()].sort().map((name) => queue.spend.get(name)!);
  const ledger = [...queue.ledger.values()];
  queue.spend.clear();
  queue.ledger.clear();
  queue.flushing = (async () => {
    // Two statements, each kept for the next write only if it failed itself, so nothing is
    // added twice.
    let spendWritten = false;
    try {
      const stores = await dataStores();
      await stores.limits.addSpend(spend);
      spendWritten = true;
      await stores.usage.add(ledger);
    } catch (error) {
      logger.warn("recording usage failed; it is kept for the next write", error);
      if (!spendWritten) for (const increment of spend) addSpend(queue, increment);
      for (const increment of ledger) addLedger(queue, increment);
      throw error;
    } finally {
      queue.flushing = null;
    }
  })();
  await queue.flushing;
}

function schedule(queue: PendingUsage): void {
  if (queue.scheduled) return;
  queue.scheduled = true;
  setTimeout(() => {
    queue.scheduled = false;
    flushAnswerUsage().catch(() => schedule(queue));
  }, 50).unref();
}

/** What an answer says of itself besides its usage, for the request's span. */
export interface AnswerFacts {
  responseId?: string;
  modelVersion?: string;
  finishReasons?: string[];
}

/** The facts of a generateContent answer (or a stream's last chunk). */
export function answerFacts(answer: GenerateContentResponse): AnswerFacts {
  const finishReasons = (answer.candidates ?? []).flatMap((candidate) =>
    candidate.finishReason ? [candidate.finishReason] : [],
  );
  return {
    ...(answer.responseId ? { responseId: answer.responseId } : {}),
    ...(answer.modelVersion ? { modelVersion: answer.modelVersion } : {}),
    ...(finishReasons.length ? { finishReasons } : {}),
  };
}

/**
 * Records one answer's usage for `caller` (see the top of this file). `model` as the request
 * named it (`models/` or not); nothing is recorded for an answer without usage.
 */
export function recordAnswerUsage(
  caller: Caller,
  model: string,
  usage: UsageMetadata | undefined,
  facts: AnswerFacts = {},
  now = Date.now(),
): void {
  if (!usage) return;
  const name = model.replace(/^models\//, "");
  const prompt = usage.promptTokenCount ?? 0;
  const cached = usage.cachedContentTokenCount ?? 0;
  const output = usage.candidatesTokenCount ?? 0;
  const thought = usage.thoughtsTokenCount ?? 0;
  const tokens = usage.totalTokenCount ?? prompt + output + thought;
  const cost = answerCost(usage, name, serverEnv().prices);
  const nanodollars = Math.round((cost?.amount ?? 0) * NANODOLLARS_PER_DOLLAR);
  countAnswerTokens(name, { prompt, cached, output, thought }, cost?.amount ?? null);
  const observation = observationOf(caller);
  if (observation) {
    addAnswerUsage(observation, {
      inputTokens: prompt,
      outputTokens: output + thought,
      cachedTokens: cached,
      thoughtTokens: thought,
      totalTokens: tokens,
      nanodollars,
      ...(facts.modelVersion ? { responseModel: facts.modelVersion } : {}),
      ...(facts.responseId ? { responseId: facts.responseId } : {}),
      ...(facts.finishReasons ? { finishReasons: facts.finishReasons } : {}),
    });
  }
  if (tokens === 0 && nanodollars === 0) return;
  const queue = pending();
  const { day, month } = spendPeriods(now);
  if (caller.key?.managed) {
    addSpend(queue, { keyId: caller.key.id, period: day, tokens, nanodollars });
    addSpend(queue, { keyId: caller.key.id, period: month, tokens, nanodollars });
  }
  addLedger(queue, {
    day,
    ownerId: caller.ownerId,
    personId: caller.person?.id ?? "",
    keyId: caller.key?.id ?? "",
    model: name.slice(0, 200),
    requests: 1,
    promptTokens: prompt,
    cachedTokens: cached,
    outputTokens: output,
    thoughtTokens: thought,
    totalTokens: tokens,
    nanodollars,
  });
  schedule(queue);
}

/**
 * The stream as it was, recording the last usage it carried once it ends (finished, failed
 * or left by the client).
 */
export function recordingStreamUsage(
  source: AsyncIterable<GenerateContentResponse>,
  caller: Caller,
  model: string,
): AsyncGenerator<GenerateContentResponse> {
  return recordingUsage(source, caller, model, (chunk) => chunk.usageMetadata, answerFacts);
}

/**
 * recordingStreamUsage for a stream of any shape: `usageOf` reads an item's usage, if it has
 * one; `factsOf`, when given, what the last item says of the answer (for the request's span).
 */
export async function* recordingUsage<Item>(
  source: AsyncIterable<Item>,
  caller: Caller,
  model: string,
  usageOf: (item: Item) => UsageMetadata | undefined,
  factsOf?: (item: Item) => AnswerFacts,
): AsyncGenerator<Item> {
  let usage: UsageMetadata | undefined;
  let last: { item: Item } | undefined;
  try {
    for await (const item of source) {
      usage = usageOf(item) ?? usage;
      last = { item };
      yield item;
    }
  } finally {
    recordAnswerUsage(caller, model, usage, last && factsOf ? factsOf(last.item) : {});
  }
}
