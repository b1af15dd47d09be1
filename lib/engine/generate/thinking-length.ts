/**
 * How many tokens a candidate thinks: the family's own length for the kind of ask
 * (the median of its recorded answers of that kind, `thinkingLength` in catalog/models.json),
 * within the request's thinkingBudget. Deterministic given the request, as the service's is in
 * the mean; knowingly not its spread (the same prompt thought 114 and 155 tokens on 3 Pro), nor
 * thinking past a budget (3 Flash thought 722 tokens under a budget of 512), nor thinkingLevel.
 */
import type { ThinkingLengthTraits } from "@/lib/engine/catalog";
import type { ThinkingTraits } from "@/lib/gemini/model-traits";
import type { GenerateContentRequest } from "@/lib/gemini/types";

/** The kinds of ask whose thinking lengths differ in the recordings. */
export type ThinkingAsk = keyof ThinkingLengthTraits;

/**
 * The kind of ask a request is, for its thinking length: an answer to function results, then
 * an ask with tools, then one constrained to JSON or an enum, else plain (text, media or both).
 */
export function thinkingAsk(request: GenerateContentRequest): ThinkingAsk {
  const last = request.contents.at(-1);
  if (last?.parts.some((part) => part.functionResponse !== undefined)) return "functionResponse";
  if ((request.tools ?? []).some(offersTool)) return "tools";
  const mimeType = request.generationConfig?.responseMimeType?.toLowerCase();
  if (mimeType === "application/json" || mimeType === "text/x.enum") return "structuredOutput";
  return "plain";
}

/** Whether a tool entry offers anything: function declarations, or a built-in tool. */
function offersTool(tool: NonNullable<GenerateContentRequest["tools"]>[number]): boolean {
  return Object.entries(tool).some(([key, value]) =>
    key === "functionDeclarations" ? Array.isArray(value) && value.length > 0 : value != null,
  );
}

/**
 * How many tokens each candidate thinks: none without thinking or with thinkingBudget 0 (on
 * models that can turn it off); else the family's length for the kind of ask, bounded by the
 * budget asked for (clamped to the model's range) or, dynamic (-1, or a 0 the model ignores), by
 * the model's largest budget.
 */
export function thinkingTokens(
  request: GenerateContentRequest,
  thinking: ThinkingTraits | undefined,
  lengths: ThinkingLengthTraits | undefined,
): number {
  if (!thinking || !lengths) return 0;
  const requested =
    request.generationConfig?.thinkingConfig?.thinkingBudget ?? thinking.defaultBudget;
  const dynamic = requested < 0 || (requested === 0 && thinking.ignoresZeroBudget === true);
  if (requested === 0 && !dynamic && thinking.canDisable) return 0;
  const budget = dynamic
    ? thinking.maxBudget
    : requested === 0
      ? thinking.minBudget
      : Math.min(thinking.maxBudget, Math.max(thinking.minBudget, requested));
  const length = lengths[thinkingAsk(request)] ?? lengths.plain;
  return Math.min(budget, length);
}
