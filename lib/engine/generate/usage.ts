/**
 * usageMetadata of a generation's chunks: the prompt's count (cache included, with its
 * details), the running answer and thought tokens, their total, and the optional fields the
 * family's answers carry (answer-shape.ts).
 */
import type {
  CountTokensResponse,
  GenerateContentRequest,
  ModalityTokenCount,
  UsageMetadata,
} from "@/lib/gemini/types";
import { shapeUsage, type AnswerShape } from "./answer-shape";
import type { GenerationInput } from "./generation-input";

/** Usage so far: answer and thought tokens of every candidate, and whether the answer is audio. */
export type UsageReport = (candidates: number, thoughts: number, audio: boolean) => UsageMetadata;

/** How a request's chunks report usage. */
export function usageReport(
  input: Pick<GenerationInput, "cachedContentTokenCount" | "cacheTokensDetails">,
  counted: CountTokensResponse,
  shape: AnswerShape,
  request: GenerateContentRequest,
): UsageReport {
  const promptTokenCount = counted.totalTokens;
  const baseUsage: UsageMetadata = { promptTokenCount };
  if (input.cachedContentTokenCount)
    baseUsage.cachedContentTokenCount = input.cachedContentTokenCount;
  return (candidates, thoughts, audio) => {
    const result: UsageMetadata = { ...baseUsage };
    if (candidates > 0) result.candidatesTokenCount = candidates;
    if (thoughts > 0) result.thoughtsTokenCount = thoughts;
    result.totalTokenCount = promptTokenCount + candidates + thoughts;
    if (counted.promptTokensDetails?.length)
      result.promptTokensDetails = counted.promptTokensDetails;
    const cacheDetails = input.cacheTokensDetails ?? counted.cacheTokensDetails;
    if (cacheDetails?.length && input.cachedContentTokenCount)
      result.cacheTokensDetails = cacheDetails;
    if (candidates > 0)
      result.candidatesTokensDetails = [
        {
          modality: audio ? "AUDIO" : "TEXT",
          tokenCount: candidates,
        } satisfies ModalityTokenCount,
      ];
    return shapeUsage(result, shape, request);
  };
}
