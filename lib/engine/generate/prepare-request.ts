/**
 * Everything a generation needs before its first token, in the order that keeps hostile
 * requests cheap: the prompt counted (in the tokenizer worker) and held to
 * the model's input limit first; then the context and the citable sources, the model's counts
 * of that context and the citation index; a built-in tool's answer; the prompt's safety verdict.
 */
import { ApiError } from "@/lib/gemini/api-error";
import type { CountTokensResponse } from "@/lib/gemini/types";
import { effectiveThresholds, judgeInSlices, type SafetyVerdict } from "@/lib/engine/safety";
import type { ImplicitCacheHit } from "@/lib/engine/caches/implicit-cache";
import { promptPrefixes } from "@/lib/engine/caches/implicit-prefix";
import { countRequestTokens, countTexts, type FixedTokens } from "@/lib/engine/tokens";
import { answerWithTools, type ToolAnswer } from "@/lib/engine/tools";
import { throwIfAborted } from "./cancellation";
import { gatherCitableSources, indexCitableSources, type CitationIndex } from "./citations";
import { gatherContext, type RequestContext } from "./context";
import type { GenerationInput } from "./generation-input";
import type { ContextualModel } from "./language-model";
import { contextCounts, languageModel } from "./model-store";
import { analysedText } from "./tools";

export interface PreparedRequest {
  /** The prompt's count: promptTokenCount and its details per modality. */
  counted: CountTokensResponse;
  /** What of the prompt a recent one of the caller's left cached (implicit caching). */
  implicitHit?: ImplicitCacheHit;
  context: RequestContext;
  /** The family's language model, with this request's context learned. */
  model: ContextualModel;
  citations: CitationIndex;
  /** What a built-in tool (code execution, grounding, URL context) answers, if one applies. */
  toolAnswer: ToolAnswer | null;
  /** Tokens of what a retrieval put before the model (usage's toolUsePromptTokenCount). */
  toolUseTokens: number;
  thresholds: ReturnType<typeof effectiveThresholds>;
  promptVerdict: SafetyVerdict;
}

/** Prepares a request for generation; throws the service's 400 over the input limit. */
export async function prepareRequest(input: GenerationInput): Promise<PreparedRequest> {
  const { request, traits, signal } = input;
  const config = request.generationConfig ?? {};
  let items: readonly FixedTokens[] = [];
  const [counted, family] = await Promise.all([
    countRequestTokens(
      traits,
      {
        contents: request.contents,
        systemInstruction: request.systemInstruction,
        tools: request.tools,
        toolConfig: request.toolConfig,
        mediaResolution: config.mediaResolution,
        responseSchema: config.responseSchema,
        responseModalities: config.responseModalities,
      },
      { resolveFile: input.resolveFile, signal, onCounted: (counted) => (items = counted) },
    ),
    languageModel(traits.tokenizer),
  ]);
  throwIfAborted(signal);
  if (counted.totalTokens > traits.inputTokenLimit) {
    throw ApiError.invalidArgument(
      `The input token count (${counted.totalTokens}) exceeds the maximum number of tokens allowed (${traits.inputTokenLimit}).`,
    );
  }
  const [context, citable] = await Promise.all([
    gatherContext(request, input.resolveFile),
    gatherCitableSources(request, input.resolveFile, { cachedContent: input.cachedContent }),
  ]);
  const [counts, citations] = await Promise.all([
    contextCounts(
      traits.tokenizer,
      family,
      context.documents,
      analysedText(context.lastUserText),
      signal,
    ),
    indexCitableSources(citable, signal),
  ]);
  throwIfAborted(signal);
  const toolAnswer = await answerWithTools(request, traits, context, input, signal);
  const toolUseTokens = toolAnswer?.toolUseTexts?.length
    ? (await countTexts(traits.tokenizer, toolAnswer.toolUseTexts, signal)).reduce(
        (sum, count) => sum + count,
        0,
      )
    : 0;
  const implicitHit = await implicitCacheHit(input, items);
  const thresholds = effectiveThresholds(request.safetySettings, traits);
  const promptVerdict = await judgeInSlices(context.promptText, thresholds, signal);
  throwIfAborted(signal);
  return {
    counted,
    ...(implicitHit ? { implicitHit } : {}),
    context,
    model: family.withContext(counts),
    citations,
    toolAnswer,
    toolUseTokens,
    thresholds,
    promptVerdict,
  };
}

/** The prompt's implicit-cache hit, when the caller's family caches implicitly. */
async function implicitCacheHit(
  input: GenerationInput,
  items: readonly FixedTokens[],
): Promise<ImplicitCacheHit | undefined> {
  if (!input.implicitCache) return undefined;
  const { request, traits } = input;
  const prefixes = await promptPrefixes(
    {
      contents: request.contents,
      systemInstruction: request.systemInstruction,
      tools: request.tools,
      responseSchema: request.generationConfig?.responseSchema,
    },
    items,
    {
      roleTokenPerContent: traits.roleTokenPerContent,
      thoughtSignatures: traits.promptTokens?.thoughtSignatures ?? "none",
    },
    input.implicitCache.traits,
  );
  return input.implicitCache.answer(prefixes);
}
