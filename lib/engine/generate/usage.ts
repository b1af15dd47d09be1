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

/** Of the answer tokens, those of speech and of pictures (the rest are text). */
export interface MediaTokens {
  audio: number;
  picture: number;
}

/** Usage so far: answer and thought tokens of every candidate, and their media. */
export type UsageReport = (
  candidates: number,
  thoughts: number,
  media: MediaTokens,
) => UsageMetadata;

/** The answer tokens per modality, each that has any. */
function candidatesDetails(candidates: number, media: MediaTokens): ModalityTokenCount[] {
  const details: ModalityTokenCount[] = [];
  const text = candidates - media.audio - media.picture;
  if (text > 0) details.push({ modality: "TEXT", tokenCount: text });
  if (media.audio > 0) details.push({ modality: "AUDIO", tokenCount: media.audio });
  if (media.picture > 0) details.push({ modality: "IMAGE", tokenCount: media.picture });
  return details;
}

/** How a request's chunks report usage. */
export function usageReport(
  input: Pick<GenerationInput, "cachedContentTokenCount" | "cacheTokensDetails">,
  counted: CountTokensResponse,
  shape: AnswerShape,
  request: GenerateContentRequest,
  toolUseTokens = 0,
): UsageReport {
  const promptTokenCount = counted.totalTokens;
  const baseUsage: UsageMetadata = { promptTokenCount };
  if (input.cachedContentTokenCount)
    baseUsage.cachedContentTokenCount = input.cachedContentTokenCount;
  // What a retrieval put before the model counts apart from the prompt, and in the total (recorded).
  if (toolUseTokens > 0) baseUsage.toolUsePromptTokenCount = toolUseTokens;
  return (candidates, thoughts, media) => {
    const result: UsageMetadata = { ...baseUsage };
    if (candidates > 0) result.candidatesTokenCount = candidates;
    if (thoughts > 0) result.thoughtsTokenCount = thoughts;
    result.totalTokenCount = promptTokenCount + toolUseTokens + candidates + thoughts;
    if (counted.promptTokensDetails?.length)
      result.promptTokensDetails = counted.promptTokensDetails;
    const cacheDetails = input.cacheTokensDetails ?? counted.cacheTokensDetails;
    if (cacheDetails?.length && input.cachedContentTokenCount)
      result.cacheTokensDetails = cacheDetails;
    if (candidates > 0) result.candidatesTokensDetails = candidatesDetails(candidates, media);
    if (toolUseTokens > 0)
      result.toolUsePromptTokensDetails = [{ modality: "TEXT", tokenCount: toolUseTokens }];
    return shapeUsage(result, shape, request);
  };
}
