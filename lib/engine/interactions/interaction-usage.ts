/**
 * An interaction's `usage`, from the generation's usageMetadata: the same counts under the
 * Interactions API's names and in its order (recorded 2026-05 on: totals always present, zeros
 * included; per-modality lists for input, and for the answer only when it is not all text).
 */
import type {
  InteractionModality,
  InteractionUsage,
  ModalityTokens,
} from "@/lib/gemini/interactions/types";
import type { ModalityTokenCount, UsageMetadata } from "@/lib/gemini/types";

function byModality(details: ModalityTokenCount[] | undefined): ModalityTokens[] | undefined {
  if (!details?.length) return undefined;
  return details.map((detail) => ({
    modality: detail.modality.toLowerCase() as InteractionModality,
    tokens: detail.tokenCount,
  }));
}

export function interactionUsage(usage: UsageMetadata | undefined): InteractionUsage {
  const input = byModality(usage?.promptTokensDetails);
  const cached = usage?.cachedContentTokenCount ? byModality(usage.cacheTokensDetails) : undefined;
  const output = usage?.candidatesTokensDetails?.some((detail) => detail.modality !== "TEXT")
    ? byModality(usage.candidatesTokensDetails)
    : undefined;
  const toolUse = usage?.toolUsePromptTokenCount
    ? byModality(usage.toolUsePromptTokensDetails)
    : undefined;
  return {
    total_tokens: usage?.totalTokenCount ?? 0,
    total_input_tokens: usage?.promptTokenCount ?? 0,
    ...(input ? { input_tokens_by_modality: input } : {}),
    total_cached_tokens: usage?.cachedContentTokenCount ?? 0,
    ...(cached ? { cached_tokens_by_modality: cached } : {}),
    total_output_tokens: usage?.candidatesTokenCount ?? 0,
    ...(output ? { output_tokens_by_modality: output } : {}),
    total_tool_use_tokens: usage?.toolUsePromptTokenCount ?? 0,
    ...(toolUse ? { tool_use_tokens_by_modality: toolUse } : {}),
    total_thought_tokens: usage?.thoughtsTokenCount ?? 0,
  };
}
