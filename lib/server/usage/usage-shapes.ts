import "server-only";
import type { EmbeddingUsageMetadata } from "@/lib/gemini/embedding-types";
import type { InteractionUsage } from "@/lib/gemini/interactions/types";
import type { UsageMetadata } from "@/lib/gemini/types";

/**
 * The usage of answers that report it in another shape, as recordAnswerUsage counts it (the
 * service's UsageMetadata): the same counts under generateContent's names, so a key's tokens
 * and cost add up the same whichever surface it calls.
 */

/** An embedding's usage: its input is all it spends. */
export function embeddingUsageMetadata(
  usage: EmbeddingUsageMetadata | undefined,
): UsageMetadata | undefined {
  if (!usage) return undefined;
  return { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount };
}

/** The OpenAI-compatible endpoint's usage (a chat completion's, or embeddings' without completion). */
export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens?: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/**
 * The endpoint's usage as an answer passed on carries it (read out of its text, so of any
 * shape): counts that are numbers, or undefined.
 */
export function openaiUsageOf(value: unknown): OpenAIUsage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const usage = value as Record<string, unknown>;
  const count = (name: string) =>
    typeof usage[name] === "number" && Number.isFinite(usage[name]) && usage[name] >= 0;
  if (!count("prompt_tokens") || !count("total_tokens")) return undefined;
  if (usage.completion_tokens !== undefined && !count("completion_tokens")) return undefined;
  const details = usage.prompt_tokens_details as { cached_tokens?: unknown } | null | undefined;
  const cached = details?.cached_tokens;
  return {
    prompt_tokens: usage.prompt_tokens as number,
    total_tokens: usage.total_tokens as number,
    ...(count("completion_tokens") ? { completion_tokens: usage.completion_tokens as number } : {}),
    ...(typeof cached === "number" && Number.isFinite(cached) && cached >= 0
      ? { prompt_tokens_details: { cached_tokens: cached } }
      : {}),
  };
}

/**
 * `total_tokens` counts the thoughts that `completion_tokens` leaves out (the endpoint's
 * wording of the service's usage), so they are what remains of it.
 */
export function openaiUsageMetadata(usage: OpenAIUsage | undefined): UsageMetadata | undefined {
  if (!usage) return undefined;
  const completion = usage.completion_tokens ?? 0;
  const thoughts = Math.max(0, usage.total_tokens - usage.prompt_tokens - completion);
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokenCount: usage.prompt_tokens,
    ...(completion ? { candidatesTokenCount: completion } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached ? { cachedContentTokenCount: cached } : {}),
    totalTokenCount: usage.total_tokens,
  };
}

/** An interaction's usage (the Interactions API's names). */
export function interactionUsageMetadata(
  usage: InteractionUsage | undefined,
): UsageMetadata | undefined {
  if (!usage) return undefined;
  return {
    promptTokenCount: usage.total_input_tokens,
    candidatesTokenCount: usage.total_output_tokens,
    totalTokenCount: usage.total_tokens,
    ...(usage.total_cached_tokens ? { cachedContentTokenCount: usage.total_cached_tokens } : {}),
    ...(usage.total_thought_tokens ? { thoughtsTokenCount: usage.total_thought_tokens } : {}),
    ...(usage.total_tool_use_tokens
      ? { toolUsePromptTokenCount: usage.total_tool_use_tokens }
      : {}),
  };
}
