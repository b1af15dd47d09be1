/**
 * The local engine's generateContent and streamGenerateContent: a validated request
 * becomes a stream of GenerateContentResponse chunks (text deltas, running usage, finishReason
 * and final usage on the last chunk) from the in-process language model; generateContent is
 * the same stream merged. Knowingly different from the service: the text is statistical
 * (see language-model.ts), built-in tools are emulated offline (lib/engine/tools), and speech is
 * a simple vocoder. The steps are modules of their own: prepare-request (count, context, tools,
 * prompt safety), candidate-runs and candidate (each candidate's generation), lock-step (the
 * candidates advanced together), chunk-assembly and usage (the chunks), merge-chunks.
 */
import type { CatalogEntry } from "@/lib/engine/catalog";
import { ApiError } from "@/lib/gemini/api-error";
import type { GenerateContentResponse, GenerationConfig } from "@/lib/gemini/types";
import { answersWithAudio, pictureAsked } from "./answer-mode";
import type { AnswerShape } from "./answer-shape";
import { startCandidateRuns } from "./candidate-runs";
import { throwIfAborted } from "./cancellation";
import { ChunkAssembler } from "./chunk-assembly";
import type { GenerationInput } from "./generation-input";
import { generationEnded, generationStarted } from "./generation-stats";
import { advanceInLockStep } from "./lock-step";
import { mergeChunks } from "./merge-chunks";
import { prepareRequest } from "./prepare-request";
import { drawPicture, PICTURE_TOKENS } from "./picture";
import { newResponseId } from "./response-id";
import { usageReport } from "./usage";

export type { GenerationInput } from "./generation-input";
export { generationStats } from "./generation-stats";
export { mergeChunks } from "./merge-chunks";

/**
 * Prompts of the kinds a person sends first (a greeting, a question, a request for a list or
 * for code), answered one after another by the warm-up.
 */
const WARM_UP_PROMPTS = [
  "Hello! What can you tell me about harbours?",
  "How do tides work, and why are there two a day?",
  "List five things to pack for a week by the sea.",
  "Write a short function that sorts a list of ports by depth.",
];

/** Tokens each warm-up answer may have: together, enough for the per-token code to be optimised. */
const WARM_UP_ANSWER_TOKENS = 400;

/**
 * Runs a few answers of `entry`'s model through the whole generation (counting, context,
 * prompt safety, the trained model, the chunks) and drops them, so the first answer after a
 * start finds all of it ready: the tokenizer and the model trained (seconds), the rest loaded
 * and compiled (hundreds of milliseconds), and the code run for every token run often enough
 * to be optimised (one answer of 64 tokens left the first real answer's first chunk 3–10
 * times as slow as later ones). Call at start-up; nothing is stored.
 */
export async function warmUpGeneration(entry: CatalogEntry): Promise<void> {
  for (const prompt of WARM_UP_PROMPTS) {
    for await (const _chunk of standAloneAnswer(entry, prompt, {
      maxOutputTokens: WARM_UP_ANSWER_TOKENS,
    })) {
      // Dropped: only the work of making it counts.
    }
  }
}

/**
 * The streamed answer of `entry`'s model to one user text, outside any request: no stored
 * input to resolve, nothing stored. For warming the engine up and for timing it on its own.
 */
export function standAloneAnswer(
  entry: CatalogEntry,
  text: string,
  generationConfig?: GenerationConfig,
): AsyncGenerator<GenerateContentResponse> {
  const noStoredInput = () =>
    Promise.reject(ApiError.notFound("An answer outside any request reads no stored input."));
  return streamGenerateContent({
    request: {
      contents: [{ role: "user", parts: [{ text }] }],
      ...(generationConfig ? { generationConfig } : {}),
    },
    traits: entry.traits,
    modelVersion: entry.modelVersion,
    answer: entry.answer,
    thinkingLength: entry.thinkingLength,
    stream: true,
    resolveFile: noStoredInput,
    resolveCachedContent: noStoredInput,
    signal: AbortSignal.timeout(120_000),
  });
}

/** Streams the answer to a request as the service's chunks. */
export async function* streamGenerateContent(
  input: GenerationInput,
): AsyncGenerator<GenerateContentResponse, void, undefined> {
  const { request, traits, signal } = input;
  throwIfAborted(signal);
  generationStarted();
  try {
    const responseId = newResponseId();
    const modelVersion = input.modelVersion;
    const shape: AnswerShape = { traits: input.answer, stream: input.stream };
    const audio = answersWithAudio(traits, request.generationConfig ?? {});
    const prepared = await prepareRequest(input);
    const usage = usageReport(
      { ...input, ...prepared.implicitHit },
      prepared.counted,
      shape,
      request,
      prepared.toolUseTokens,
    );
    if (prepared.promptVerdict.blocked) {
      yield {
        promptFeedback: { blockReason: "SAFETY", safetyRatings: prepared.promptVerdict.ratings },
        usageMetadata: usage(0, 0, { audio: 0, picture: 0 }),
        modelVersion,
        responseId,
      };
      return;
    }
    const picture = await answerPicture(input, prepared.context.lastUserText);
    const runs = await startCandidateRuns(input, prepared, shape, { audio, picture });
    const assembler = new ChunkAssembler({
      request,
      shape,
      toolAnswer: prepared.toolAnswer,
      citations: prepared.citations,
      usage,
      modelVersion,
      responseId,
    });
    for await (const deltas of advanceInLockStep(runs, signal)) yield assembler.chunk(deltas, runs);
  } finally {
    generationEnded();
  }
}

/**
 * The picture the answer carries, if IMAGE is asked: drawn only when the output limit can hold
 * one (`png` null otherwise, and the limit ends the answer where it would go).
 */
async function answerPicture(
  input: GenerationInput,
  prompt: string,
): Promise<{ png: Uint8Array | null; alone: boolean } | undefined> {
  const config = input.request.generationConfig ?? {};
  const asked = pictureAsked(config);
  if (asked === "none") return undefined;
  const fits = (config.maxOutputTokens ?? input.traits.outputTokenLimit) >= PICTURE_TOKENS;
  return {
    png: fits ? await drawPicture(prompt, config.imageConfig) : null,
    alone: asked === "alone",
  };
}

/** The whole answer at once: the chunks of its unary generation merged. */
export async function generateContent(input: GenerationInput): Promise<GenerateContentResponse> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of streamGenerateContent({ ...input, stream: false })) chunks.push(chunk);
  throwIfAborted(input.signal);
  return mergeChunks(chunks);
}
