/**
 * The candidates of one request, each a CandidateRun (candidate.ts) with its own random
 * streams: the sampling settings and the seed, how long they think and whether thoughts are
 * shown, where signatures go, the limits and the safety check, and each one's answer mode.
 */
import { hashString } from "@/lib/gemini/hash-string";
import type { GenerateContentRequest, GenerationConfig } from "@/lib/gemini/types";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import { CandidateSafety } from "@/lib/engine/safety";
import { makeThoughtSignature } from "@/lib/engine/tokens";
import { jsonTextPieces } from "@/lib/runtime/json-stringify-in-slices";
import { runInSlices, TimeSlices } from "@/lib/runtime/time-slices";
import { answerModeSteps } from "./answer-mode";
import { carriesAvgLogprobs, signaturePlacement, type AnswerShape } from "./answer-shape";
import { CandidateRun, type AnswerMode, type CandidateOptions } from "./candidate";
import type { DecodingState } from "./decoding";
import type { GenerationInput } from "./generation-input";
import { Distribution } from "./language-model";
import type { PreparedRequest } from "./prepare-request";
import { freshSeed, SeededRandom } from "./random";
import type { SamplingSettings } from "./sampler";
import { thinkingTokens } from "./thinking-length";

/** The request's sampling settings, the model's defaults where it sets none. */
function samplingSettings(config: GenerationConfig, traits: ModelTraits): SamplingSettings {
  return {
    temperature: config.temperature ?? traits.temperature,
    topP: config.topP ?? traits.topP,
    topK: config.topK ?? traits.topK,
    presencePenalty: config.presencePenalty ?? 0,
    frequencyPenalty: config.frequencyPenalty ?? 0,
  };
}

/**
 * The seed: the request's; without one, a hash of the request at temperature 0 (the choices
 * that still draw, such as numbers in JSON, stay the same) or when sampling is to repeat, and
 * a fresh one otherwise.
 */
async function requestSeed(
  config: GenerationConfig,
  settings: SamplingSettings,
  input: GenerationInput,
): Promise<number> {
  if (config.seed !== undefined) return config.seed >>> 0;
  return settings.temperature <= 0 || input.repeatableSampling
    ? await requestHash(input.request)
    : freshSeed();
}

/** hashString(JSON.stringify(request)), written and hashed in slices (a request may be megabytes). */
async function requestHash(request: GenerateContentRequest): Promise<number> {
  const slices = new TimeSlices();
  let hash: number | undefined;
  for (const piece of await jsonTextPieces(request, { slices })) {
    hash = hashString(piece, hash);
    if (slices.due()) await slices.pause();
  }
  return hash ?? hashString("");
}

/** One run per candidate (one for speech), ready to advance in lock-step. */
export async function startCandidateRuns(
  input: GenerationInput,
  prepared: PreparedRequest,
  shape: AnswerShape,
  output: { audio: boolean; picture?: CandidateOptions["picture"] },
): Promise<CandidateRun[]> {
  const { audio, picture } = output;
  const { request, traits } = input;
  const { context, toolAnswer } = prepared;
  const config = request.generationConfig ?? {};
  const settings = samplingSettings(config, traits);
  const seed = await requestSeed(config, settings, input);
  const thinking = thinkingTokens(request, traits.thinking, input.thinkingLength);
  const includeThoughts =
    thinking > 0 &&
    config.thinkingConfig?.includeThoughts === true &&
    input.answer.thoughtSummaries !== false;
  const placement = signaturePlacement(shape, request, thinking > 0);
  const stopSequences = config.stopSequences ?? [];
  const distribution = new Distribution();
  const candidateCount = audio ? 1 : Math.max(1, config.candidateCount ?? 1);
  const runs: CandidateRun[] = [];
  for (let index = 0; index < candidateCount; index++) {
    const random = new SeededRandom(hashString(`candidate:${index}`, seed));
    const state = (salt: number): DecodingState => ({
      model: prepared.model,
      distribution,
      settings,
      random: random.fork(salt),
      counts: new Map(),
      topLogprobs: config.responseLogprobs ? Math.max(0, config.logprobs ?? 0) : 0,
    });
    const answer = state(1);
    const thought = state(2);
    const mode: AnswerMode =
      toolAnswer?.text !== undefined && !audio
        ? { kind: "text", literal: toolAnswer.text }
        : await runInSlices(answerModeSteps(request, context, answer, audio));
    runs.push(
      new CandidateRun({
        index,
        answer,
        thought,
        mode,
        ...(picture && mode.kind === "text" ? { picture } : {}),
        thinkingTokens: thinking,
        includeThoughts,
        ...(placement !== "none" ? { signature: { make: makeThoughtSignature, placement } } : {}),
        maxOutputTokens: config.maxOutputTokens ?? traits.outputTokenLimit,
        stopSequences,
        responseLogprobs: config.responseLogprobs === true,
        avgLogprobs: carriesAvgLogprobs(shape, request),
        functionCallIds: input.answer.functionCallIds,
        finishOnEmptyPart: input.stream && input.answer.finishOnEmptyPart,
        ...(input.stream && input.answer.streamedThoughtsAfterTokens !== undefined
          ? { thoughtsAfterTokens: input.answer.streamedThoughtsAfterTokens }
          : {}),
        safety: new CandidateSafety(prepared.thresholds),
      }),
    );
  }
  return runs;
}
