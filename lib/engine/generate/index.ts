/**
 * The local engine's generateContent and streamGenerateContent (issue 3): a validated request
 * becomes a stream of GenerateContentResponse chunks (text deltas, running usage, finishReason
 * and final usage on the last chunk) from the in-process language model; generateContent is
 * the same stream merged. Knowingly different from the service: the text is statistical
 * (see language-model.ts), built-in tools are emulated offline (lib/engine/tools), and speech is
 * a simple vocoder.
 */
import { randomBytes } from "node:crypto";
import { ApiError } from "@/lib/gemini/api-error";
import type { ModelTraits, ThinkingTraits } from "@/lib/gemini/model-traits";
import type {
  Candidate,
  GenerateContentRequest,
  GenerateContentResponse,
  LogprobsResult,
  ModalityTokenCount,
  Part,
  UsageMetadata,
} from "@/lib/gemini/types";
import { CandidateSafety, effectiveThresholds, judgeInSlices } from "@/lib/engine/safety";
import { countRequestTokens, makeThoughtSignature } from "@/lib/engine/tokens";
import { CandidateRun, type AnswerMode, type CandidateDelta } from "./candidate";
import { findCitations, gatherCitableSources, indexCitableSources } from "./citations";
import { gatherContext, type RequestContext, type ResolveFile } from "./context";
import type { DecodingState } from "./decoding";
import { fromOpenApiSchema, JsonSchemaDocument } from "./json-output";
import { Distribution } from "./language-model";
import { contextCounts, languageModel } from "./model-store";
import { hashString } from "@/lib/gemini/hash-string";
import { jsonTextPieces } from "@/lib/engine/json-text-pieces";
import { TimeSlices } from "@/lib/engine/time-slices";
import { freshSeed, SeededRandom } from "./random";
import type { SamplingSettings } from "./sampler";
import { literalAnswer } from "./skills";
import { answerWithTools, type ToolAnswer } from "@/lib/engine/tools";
import { promptHints } from "./prompt-words";
import { analysedText, decideFunctionCall, functionResultLead } from "./tools";

export interface GenerationInput {
  /** Validated; cached content already merged in front of contents (and its systemInstruction/tools/toolConfig). */
  request: GenerateContentRequest;
  traits: ModelTraits;
  /** What answers carry as `modelVersion` (the catalog's: an alias answers as its target). */
  modelVersion: string;
  /** Size of the cache used, reported in usage (and included in promptTokenCount). */
  cachedContentTokenCount?: number;
  /** The cache's tokens per modality, reported as usageMetadata.cacheTokensDetails. */
  cacheTokensDetails?: ModalityTokenCount[];
  resolveFile: ResolveFile;
  signal: AbortSignal;
  /** The cache the request used: its name and how many leading contents came from it (for citations). */
  cachedContent?: { name: string; contents: number };
}

const FIRST_CHUNK_TOKENS = 4;
const CHUNK_TOKENS = 16;
/** Tokens produced between event-loop turns while candidates think without showing it. */
const SILENT_SLICE_TOKENS = 64;

let activeGenerations = 0;
let generatedTokens = 0;

/** Live counters (monitoring, and tests that check an aborted generation stopped working). */
export function generationStats(): { active: number; tokens: number } {
  return { active: activeGenerations, tokens: generatedTokens };
}

/**
 * Loads the family's tokenizer and trains its model ahead of the first request (call at
 * start-up to keep the cold start, seconds, out of the first answer).
 */
export async function warmUpGeneration(family: ModelTraits["tokenizer"]): Promise<void> {
  await languageModel(family);
}

/** Streams the answer to a request as the service's chunks. */
export async function* streamGenerateContent(
  input: GenerationInput,
): AsyncGenerator<GenerateContentResponse, void, undefined> {
  const { request, traits, signal } = input;
  throwIfAborted(signal);
  activeGenerations += 1;
  try {
    const responseId = randomBytes(15).toString("base64url");
    const modelVersion = input.modelVersion;
    const config = request.generationConfig ?? {};
    const speechOnly =
      traits.responseModalities.length > 0 &&
      traits.responseModalities.every(
        (combination) => combination.length === 1 && combination[0] === "AUDIO",
      );
    const audio =
      speechOnly ||
      (config.responseModalities ?? []).some((modality) => modality.toUpperCase() === "AUDIO");

    // The input token limit is checked before any other work on the request's text, so a
    // request the limit refuses costs only its count (done in the tokenizer worker).
    const [counted, model] = await Promise.all([
      countRequestTokens(
        traits,
        {
          contents: request.contents,
          systemInstruction: request.systemInstruction,
          tools: request.tools,
          toolConfig: request.toolConfig,
          mediaResolution: config.mediaResolution,
          responseSchema: config.responseSchema,
        },
        { resolveFile: input.resolveFile, signal },
      ),
      languageModel(traits.tokenizer),
    ]);
    throwIfAborted(signal);
    const promptTokenCount = counted.totalTokens;
    if (promptTokenCount > traits.inputTokenLimit) {
      throw ApiError.invalidArgument(
        `The input token count (${promptTokenCount}) exceeds the maximum number of tokens allowed (${traits.inputTokenLimit}).`,
      );
    }
    const [context, citable] = await Promise.all([
      gatherContext(request, input.resolveFile),
      gatherCitableSources(request, input.resolveFile, { cachedContent: input.cachedContent }),
    ]);
    const [counts, citations] = await Promise.all([
      contextCounts(
        traits.tokenizer,
        model,
        context.documents,
        analysedText(context.lastUserText),
        signal,
      ),
      indexCitableSources(citable, signal),
    ]);
    throwIfAborted(signal);
    // Code execution, grounding or URL context answer the turn when the request enables them.
    const toolAnswer = await answerWithTools(request, traits, context, input.resolveFile, signal);
    const toolPartsSent = new Set<number>();
    // Each candidate's answer text so far; its citations go on the candidate's last chunk (the one with finishReason).
    const answerTexts = new Map<number, string>();
    const baseUsage: UsageMetadata = { promptTokenCount };
    if (input.cachedContentTokenCount)
      baseUsage.cachedContentTokenCount = input.cachedContentTokenCount;
    const usage = (candidates: number, thoughts: number, audioAnswer: boolean): UsageMetadata => {
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
            modality: audioAnswer ? "AUDIO" : "TEXT",
            tokenCount: candidates,
          } satisfies ModalityTokenCount,
        ];
      return result;
    };

    const thresholds = effectiveThresholds(request.safetySettings, traits);
    const promptVerdict = await judgeInSlices(context.promptText, thresholds, signal);
    throwIfAborted(signal);
    if (promptVerdict.blocked) {
      yield {
        promptFeedback: { blockReason: "SAFETY", safetyRatings: promptVerdict.ratings },
        usageMetadata: usage(0, 0, false),
        modelVersion,
        responseId,
      };
      return;
    }

    const contextual = model.withContext(counts);

    const stopSequences = config.stopSequences ?? [];

    const settings: SamplingSettings = {
      temperature: config.temperature ?? traits.temperature,
      topP: config.topP ?? traits.topP,
      topK: config.topK ?? traits.topK,
      presencePenalty: config.presencePenalty ?? 0,
      frequencyPenalty: config.frequencyPenalty ?? 0,
    };
    const seed =
      config.seed !== undefined
        ? config.seed >>> 0
        : settings.temperature <= 0
          ? await requestHash(request)
          : freshSeed();
    const thinkingBudget = resolveThinkingBudget(request, traits, promptTokenCount);
    const includeThoughts = thinkingBudget > 0 && config.thinkingConfig?.includeThoughts === true;
    const distribution = new Distribution();
    const candidateCount = audio ? 1 : Math.max(1, config.candidateCount ?? 1);
    const runs: CandidateRun[] = [];
    for (let index = 0; index < candidateCount; index++) {
      const random = new SeededRandom(hashString(`candidate:${index}`, seed));
      const state = (salt: number): DecodingState => ({
        model: contextual,
        distribution,
        settings,
        random: random.fork(salt),
        counts: new Map(),
        topLogprobs: config.responseLogprobs ? Math.max(0, config.logprobs ?? 0) : 0,
      });
      const answer = state(1);
      runs.push(
        new CandidateRun({
          index,
          answer,
          thought: state(2),
          mode:
            toolAnswer?.text !== undefined && !audio
              ? { kind: "text", literal: toolAnswer.text }
              : answerMode(request, context, answer, audio),
          thinkingBudget,
          includeThoughts,
          thoughtSignature:
            traits.thinking && thinkingBudget > 0 ? makeThoughtSignature : undefined,
          maxOutputTokens: config.maxOutputTokens ?? traits.outputTokenLimit,
          stopSequences,
          responseLogprobs: config.responseLogprobs === true,
          safety: new CandidateSafety(thresholds),
        }),
      );
    }

    let first = true;
    while (runs.some((run) => !run.finished)) {
      const budget = runs.every((run) => run.finished || run.thinkingSilently)
        ? SILENT_SLICE_TOKENS
        : first
          ? FIRST_CHUNK_TOKENS
          : CHUNK_TOKENS;
      const before = totalTokens(runs);
      const deltas: CandidateDelta[] = [];
      for (const run of runs) {
        const delta = run.advance(budget);
        if (delta) deltas.push(delta);
      }
      generatedTokens += totalTokens(runs) - before;
      if (deltas.length === 0) {
        // Hidden thinking sends nothing, but still lets the event loop run and a closed client stop it.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal.aborted) return;
        continue;
      }
      first = false;
      const candidatesTokens = runs.reduce((sum, run) => sum + run.answerTokens, 0);
      const thoughtTokens = runs.reduce((sum, run) => sum + run.thoughtTokens, 0);
      const candidates = deltas.map(toCandidate);
      if (toolAnswer) attachToolAnswer(toolAnswer, deltas, candidates, toolPartsSent);
      for (const [position, delta] of deltas.entries()) {
        const text = answerTexts.get(delta.index) ?? "";
        const added = delta.parts
          .filter((part) => part.text !== undefined && !part.thought && !part.functionCall)
          .map((part) => part.text)
          .join("");
        answerTexts.set(delta.index, text + added);
        if (delta.finishReason && delta.finishReason !== "SAFETY" && citations.sources.length) {
          const citationSources = findCitations(text + added, citations);
          if (citationSources.length) candidates[position]!.citationMetadata = { citationSources };
        }
      }
      const chunk: GenerateContentResponse = {
        candidates,
        usageMetadata: usage(
          candidatesTokens,
          thoughtTokens,
          runs.some((run) => run.audio),
        ),
        modelVersion,
        responseId,
      };
      yield chunk;
      if (signal.aborted) return;
      // Let the event loop flush the chunk and notice a closed client before the next one.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) return;
    }
  } finally {
    activeGenerations -= 1;
  }
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

/** The whole answer at once: the stream's chunks merged. */
export async function generateContent(input: GenerationInput): Promise<GenerateContentResponse> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of streamGenerateContent(input)) chunks.push(chunk);
  throwIfAborted(input.signal);
  return mergeChunks(chunks);
}

/**
 * Puts a built-in tool's parts (executable code and its result) in each candidate's first
 * chunk with answer parts, after any thoughts and before the text, and its metadata on the
 * candidate's last chunk.
 */
function attachToolAnswer(
  toolAnswer: ToolAnswer,
  deltas: readonly CandidateDelta[],
  candidates: Candidate[],
  partsSent: Set<number>,
): void {
  deltas.forEach((delta, position) => {
    const candidate = candidates[position]!;
    const parts = candidate.content?.parts ?? [];
    const answerAt = parts.findIndex((part) => !part.thought);
    if (
      toolAnswer.parts.length &&
      !partsSent.has(delta.index) &&
      (answerAt >= 0 || delta.finishReason)
    ) {
      partsSent.add(delta.index);
      const at = answerAt >= 0 ? answerAt : parts.length;
      candidate.content = {
        role: "model",
        parts: [...parts.slice(0, at), ...toolAnswer.parts, ...parts.slice(at)],
      };
    }
    if (delta.finishReason && delta.finishReason !== "SAFETY") {
      if (toolAnswer.groundingMetadata) candidate.groundingMetadata = toolAnswer.groundingMetadata;
      if (toolAnswer.urlContextMetadata)
        candidate.urlContextMetadata = toolAnswer.urlContextMetadata;
    }
  });
}

function totalTokens(runs: CandidateRun[]): number {
  return runs.reduce((sum, run) => sum + run.answerTokens + run.thoughtTokens, 0);
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted)
    throw new ApiError(499, "CANCELLED", "The request was cancelled by the client.");
}

function toCandidate(delta: CandidateDelta): Candidate {
  const candidate: Candidate = {};
  // Empty fields are left out: a chunk with nothing new to show (held-back text, a final
  // chunk after the last text, a blocked candidate) carries no content.
  if (delta.parts.length) candidate.content = { role: "model", parts: delta.parts };
  if (delta.finishReason) candidate.finishReason = delta.finishReason;
  if (delta.safetyRatings) candidate.safetyRatings = delta.safetyRatings;
  if (delta.avgLogprobs !== undefined) candidate.avgLogprobs = delta.avgLogprobs;
  if (delta.chosen.length) {
    const logprobs: LogprobsResult = { chosenCandidates: delta.chosen };
    if (delta.top.length) logprobs.topCandidates = delta.top;
    candidate.logprobsResult = logprobs;
  }
  candidate.index = delta.index;
  return candidate;
}

function resolveThinkingBudget(
  request: GenerateContentRequest,
  traits: ModelTraits,
  promptTokens: number,
): number {
  const thinking = traits.thinking;
  if (!thinking) return 0;
  const requested =
    request.generationConfig?.thinkingConfig?.thinkingBudget ?? thinking.defaultBudget;
  if (requested === 0 && thinking.ignoresZeroBudget) return dynamicBudget(thinking, promptTokens);
  if (requested === 0) return thinking.canDisable ? 0 : thinking.minBudget;
  if (requested < 0) return dynamicBudget(thinking, promptTokens);
  return Math.min(thinking.maxBudget, Math.max(thinking.minBudget, requested));
}

/** Dynamic thinking (-1): a budget that grows with the prompt, within the model's range. */
function dynamicBudget(thinking: ThinkingTraits, promptTokens: number): number {
  return Math.min(
    thinking.maxBudget,
    Math.max(thinking.minBudget, Math.min(512, 48 + Math.floor(promptTokens / 8))),
  );
}

function answerMode(
  request: GenerateContentRequest,
  context: RequestContext,
  state: DecodingState,
  audio: boolean,
): AnswerMode {
  const config = request.generationConfig ?? {};
  if (audio) {
    const voiceName = config.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
    return { kind: "audio", text: context.lastUserText, voiceName };
  }
  const decision = decideFunctionCall(
    request,
    context.lastUserText,
    context.answersFunction,
    (count) => chooseIndex(state, new Array<number>(count).fill(1)),
  );
  if (decision?.kind === "ask") return { kind: "text", literal: decision.text };
  if (decision?.kind === "call") {
    const chosen = decision.declaration;
    const hints = promptHints(analysedText(context.lastUserText));
    if (chosen.parametersJsonSchema !== undefined) {
      const document = new JsonSchemaDocument(chosen.parametersJsonSchema);
      return {
        kind: "function",
        name: chosen.name,
        parameters: document.rootNode(),
        resolve: (ref) => document.resolve(ref),
        hints,
        presets: decision.arguments,
      };
    }
    return {
      kind: "function",
      name: chosen.name,
      parameters: fromOpenApiSchema(chosen.parameters),
      hints,
      presets: decision.arguments,
    };
  }
  const mimeType = config.responseMimeType?.toLowerCase();
  if (mimeType === "application/json") {
    if (config.responseJsonSchema !== undefined) {
      const document = new JsonSchemaDocument(config.responseJsonSchema);
      return { kind: "json", root: document.rootNode(), resolve: (ref) => document.resolve(ref) };
    }
    return { kind: "json", root: fromOpenApiSchema(config.responseSchema) };
  }
  if (mimeType === "text/x.enum") {
    const values = config.responseSchema?.enum ?? enumOf(config.responseJsonSchema);
    if (values?.length) return { kind: "enum", values };
  }
  const literal = literalAnswer(context.lastUserText);
  if (literal !== undefined) return { kind: "text", literal };
  const last = request.contents.at(-1);
  const lead = context.answersFunction && last ? functionResultLead(last.parts) : undefined;
  return lead ? { kind: "text", lead } : { kind: "text" };
}

function enumOf(schema: unknown): (string | number)[] | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const values = (schema as { enum?: unknown }).enum;
  return Array.isArray(values)
    ? values.filter(
        (value): value is string | number => typeof value === "string" || typeof value === "number",
      )
    : undefined;
}

function chooseIndex(state: DecodingState, weights: number[]): number {
  if (state.settings.temperature <= 0) return weights.indexOf(Math.max(...weights));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let target = state.random.next() * total;
  for (let index = 0; index < weights.length; index++) {
    target -= weights[index]!;
    if (target < 0) return index;
  }
  return weights.length - 1;
}

/** Merges streamed chunks into one response, as generateContent answers. */
export function mergeChunks(chunks: readonly GenerateContentResponse[]): GenerateContentResponse {
  const last = chunks[chunks.length - 1];
  if (!last) throw ApiError.internal();
  const response: GenerateContentResponse = {};
  const byIndex = new Map<number, Candidate>();
  for (const chunk of chunks) {
    if (chunk.promptFeedback) response.promptFeedback = chunk.promptFeedback;
    for (const delta of chunk.candidates ?? []) {
      const index = delta.index ?? 0;
      let candidate = byIndex.get(index);
      if (!candidate) {
        candidate = { content: { role: "model", parts: [] }, index };
        byIndex.set(index, candidate);
      }
      for (const part of delta.content?.parts ?? []) appendPart(candidate.content!.parts, part);
      if (delta.finishReason) candidate.finishReason = delta.finishReason;
      if (delta.safetyRatings) candidate.safetyRatings = delta.safetyRatings;
      if (delta.avgLogprobs !== undefined) candidate.avgLogprobs = delta.avgLogprobs;
      if (delta.citationMetadata) candidate.citationMetadata = delta.citationMetadata;
      if (delta.groundingMetadata) candidate.groundingMetadata = delta.groundingMetadata;
      if (delta.urlContextMetadata) candidate.urlContextMetadata = delta.urlContextMetadata;
      if (delta.logprobsResult) {
        const into = (candidate.logprobsResult ??= {});
        if (delta.logprobsResult.chosenCandidates)
          (into.chosenCandidates ??= []).push(...delta.logprobsResult.chosenCandidates);
        if (delta.logprobsResult.topCandidates)
          (into.topCandidates ??= []).push(...delta.logprobsResult.topCandidates);
      }
    }
  }
  const candidates = [...byIndex.values()].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  for (const candidate of candidates) {
    if (candidate.content?.parts.length === 0) delete candidate.content;
    // A candidate blocked while streaming keeps none of the text sent before the block.
    if (candidate.finishReason === "SAFETY") {
      delete candidate.content;
      delete candidate.logprobsResult;
      delete candidate.avgLogprobs;
      delete candidate.citationMetadata;
    }
  }
  if (candidates.length) response.candidates = candidates;
  if (last.usageMetadata) response.usageMetadata = last.usageMetadata;
  if (last.modelVersion) response.modelVersion = last.modelVersion;
  if (last.responseId) response.responseId = last.responseId;
  return response;
}

function appendPart(parts: Part[], part: Part): void {
  const previous = parts[parts.length - 1];
  if (
    previous &&
    part.text !== undefined &&
    previous.text !== undefined &&
    !previous.functionCall &&
    Boolean(previous.thought) === Boolean(part.thought) &&
    !part.thoughtSignature
  ) {
    previous.text += part.text;
    return;
  }
  if (
    previous &&
    part.inlineData &&
    previous.inlineData &&
    previous.inlineData.mimeType === part.inlineData.mimeType
  ) {
    previous.inlineData = {
      mimeType: previous.inlineData.mimeType,
      data: Buffer.concat([
        Buffer.from(previous.inlineData.data, "base64"),
        Buffer.from(part.inlineData.data, "base64"),
      ]).toString("base64"),
    };
    return;
  }
  parts.push({ ...part });
}
