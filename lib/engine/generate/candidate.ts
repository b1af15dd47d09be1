/**
 * One candidate's generation, advanced a few tokens at a time so several candidates stream in
 * lock-step: optional thinking (thought tokens, thought parts only with includeThoughts),
 * then the answer in its mode (text, constrained JSON, bare enum, function call, speech),
 * with stop sequences, maxOutputTokens (thinking counts toward it, as on the service),
 * logprobs and the candidate safety check applied as the text is produced.
 */
import type {
  FinishReason,
  FunctionCall,
  LogprobsCandidate,
  Part,
  SafetyRating,
} from "@/lib/gemini/types";
import type { CandidateSafety } from "@/lib/engine/safety";
import { forcedText, pushHistory, sampleStep, type DecodingState, type Emission } from "./decoding";
import { JsonGrammar, type SchemaNode } from "./json-output";
import {
  pcmBytes,
  SPEECH_MIME_TYPE,
  SPEECH_SAMPLE_RATE,
  SPEECH_TOKENS_PER_SECOND,
  synthesizeSpeech,
} from "./speech";
import { StopSequenceFilter } from "./stop-sequences";
import { TokenTextDecoder } from "./vocabulary";

export type AnswerMode =
  | {
      kind: "text";
      /** The whole answer, forced (literal skills, questions back). */
      literal?: string;
      /** Forced opening text the model's own text follows (the result of a function call). */
      lead?: string;
    }
  | { kind: "json"; root: SchemaNode; resolve?: (ref: string) => SchemaNode }
  | { kind: "enum"; values: (string | number | boolean | null)[] }
  | {
      kind: "function";
      name: string;
      parameters: SchemaNode;
      resolve?: (ref: string) => SchemaNode;
      hints: string[];
      /** Argument values taken from the prompt, emitted as they are. */
      presets?: Record<string, unknown>;
    }
  | { kind: "audio"; text: string; voiceName?: string };

export interface CandidateOptions {
  index: number;
  answer: DecodingState;
  thought: DecodingState;
  mode: AnswerMode;
  thinkingBudget: number;
  includeThoughts: boolean;
  /** Makes the signature of an answer that thought so many tokens (it counts them when sent back). */
  thoughtSignature?: (thoughtTokens: number) => string;
  maxOutputTokens: number;
  stopSequences: string[];
  responseLogprobs: boolean;
  safety: CandidateSafety;
}

type Step =
  | { type: "token"; phase: "thought" | "answer"; emission: Emission }
  | { type: "functionCall"; call: FunctionCall; tokens: number }
  | { type: "audio"; data: Uint8Array; tokens: number };

export interface CandidateDelta {
  index: number;
  parts: Part[];
  chosen: LogprobsCandidate[];
  top: { candidates: LogprobsCandidate[] }[];
  finishReason?: FinishReason;
  safetyRatings?: SafetyRating[];
  /** Average log probability of all answer tokens (on the last delta). */
  avgLogprobs?: number;
}

const AUDIO_CHUNK_SECONDS = 0.5;

export class CandidateRun {
  thoughtTokens = 0;
  answerTokens = 0;
  finished = false;
  finishReason: FinishReason | undefined;
  private readonly steps: Iterator<Step, void>;
  private readonly decoder: TokenTextDecoder;
  private readonly thoughtDecoder: TokenTextDecoder;
  private readonly stops: StopSequenceFilter;
  private signaturePending: boolean;
  private logprobSum = 0;
  private audioTokens = 0;
  private answering = false;

  constructor(private readonly options: CandidateOptions) {
    this.steps = this.run();
    this.decoder = new TokenTextDecoder(options.answer.model.vocabulary);
    this.thoughtDecoder = new TokenTextDecoder(options.answer.model.vocabulary);
    this.stops = new StopSequenceFilter(options.stopSequences);
    this.signaturePending = options.thoughtSignature !== undefined;
  }

  get index(): number {
    return this.options.index;
  }

  /** True while the candidate thinks without showing its thoughts: nothing to send yet. */
  get thinkingSilently(): boolean {
    return (
      !this.finished &&
      !this.answering &&
      this.options.thinkingBudget > 0 &&
      !this.options.includeThoughts
    );
  }

  /** Whether the answer is audio (usage is then reported as the AUDIO modality). */
  get audio(): boolean {
    return this.options.mode.kind === "audio";
  }

  /** Produces up to `budget` more tokens; returns what to send for this candidate (null: nothing new). */
  advance(budget: number): CandidateDelta | null {
    if (this.finished) return null;
    const options = this.options;
    const vocabulary = options.answer.model.vocabulary;
    let thoughtText = "";
    let answerText = "";
    const extraParts: Part[] = [];
    const chosen: LogprobsCandidate[] = [];
    const top: { candidates: LogprobsCandidate[] }[] = [];
    let reason: FinishReason | undefined;
    const silent = this.thinkingSilently;
    for (let produced = 0; produced < budget;) {
      // Send the first answer token at once rather than filling a long silent-thinking slice.
      if (silent && this.answering) break;
      if (this.thoughtTokens + this.answerTokens >= options.maxOutputTokens) {
        reason = "MAX_TOKENS";
        break;
      }
      const next = this.steps.next();
      if (next.done) {
        reason = "STOP";
        break;
      }
      const step = next.value;
      if (step.type === "token") {
        produced += 1;
        if (step.phase === "thought") {
          this.thoughtTokens += 1;
          if (options.includeThoughts) thoughtText += this.thoughtDecoder.push(step.emission.id);
          continue;
        }
        this.answerTokens += 1;
        this.logprobSum += step.emission.logProbability;
        if (options.responseLogprobs) {
          chosen.push({
            token: vocabulary.tokenText(step.emission.id),
            tokenId: step.emission.id,
            logProbability: step.emission.logProbability,
          });
          if (step.emission.top.length) {
            top.push({
              candidates: step.emission.top.map((entry) => ({
                token: vocabulary.tokenText(entry.id),
                tokenId: entry.id,
                logProbability: entry.logProbability,
              })),
            });
          }
        }
        const filtered = this.stops.push(this.decoder.push(step.emission.id));
        answerText += filtered.emit;
        if (filtered.stopped) {
          reason = "STOP";
          break;
        }
      } else if (step.type === "functionCall") {
        this.answerTokens += step.tokens;
        produced += step.tokens;
        extraParts.push({ functionCall: step.call });
      } else {
        this.answerTokens += step.tokens;
        this.audioTokens += step.tokens;
        produced += step.tokens;
        extraParts.push({
          inlineData: {
            mimeType: SPEECH_MIME_TYPE,
            data: Buffer.from(step.data).toString("base64"),
          },
        });
      }
    }
    if (reason === "STOP" || reason === "MAX_TOKENS")
      answerText += this.decoder.end() + this.stops.flush();
    if (reason === "MAX_TOKENS" && options.includeThoughts)
      thoughtText += this.thoughtDecoder.end();

    const verdict = options.safety.check(answerText);
    const delta: CandidateDelta = { index: options.index, parts: [], chosen, top };
    if (verdict.blocked) {
      reason = "SAFETY";
    } else {
      if (thoughtText) delta.parts.push({ text: thoughtText, thought: true });
      if (answerText) delta.parts.push({ text: answerText });
      delta.parts.push(...extraParts);
      const firstAnswer = delta.parts.find((part) => !part.thought);
      if (firstAnswer && this.signaturePending) {
        firstAnswer.thoughtSignature = options.thoughtSignature?.(this.thoughtTokens);
        this.signaturePending = false;
      }
    }
    if (verdict.ratings.length) delta.safetyRatings = verdict.ratings;
    if (reason) {
      this.finished = true;
      this.finishReason = reason;
      delta.finishReason = reason;
      if (options.responseLogprobs && this.answerTokens > 0 && !this.audio)
        delta.avgLogprobs = this.logprobSum / this.answerTokens;
      if (reason === "SAFETY") {
        delta.chosen = [];
        delta.top = [];
      }
    }
    if (!delta.parts.length && !reason && !chosen.length) return null;
    return delta;
  }

  private *run(): Generator<Step, void> {
    const options = this.options;
    if (options.thinkingBudget > 0) yield* this.thinking();
    this.answering = true;
    const mode = options.mode;
    const state = options.answer;
    switch (mode.kind) {
      case "text":
        if (mode.literal !== undefined) {
          for (const emission of forcedText(state, mode.literal))
            yield { type: "token", phase: "answer", emission };
        } else {
          if (mode.lead !== undefined)
            for (const emission of forcedText(state, `${mode.lead} `))
              yield { type: "token", phase: "answer", emission };
          yield* this.freeText(
            state,
            state.model.symbols.answerStart,
            "answer",
            Number.POSITIVE_INFINITY,
          );
        }
        return;
      case "json": {
        const grammar = new JsonGrammar(state, { pretty: true, resolve: mode.resolve });
        const tokens = grammar.value(mode.root);
        for (let next = tokens.next(); !next.done; next = tokens.next())
          yield { type: "token", phase: "answer", emission: next.value };
        return;
      }
      case "enum": {
        const grammar = new JsonGrammar(state, { pretty: false });
        const tokens = grammar.bareEnum(mode.values);
        for (let next = tokens.next(); !next.done; next = tokens.next())
          yield { type: "token", phase: "answer", emission: next.value };
        return;
      }
      case "function": {
        const grammar = new JsonGrammar(state, {
          pretty: false,
          resolve: mode.resolve,
          stringHints: mode.hints,
          presets: mode.presets,
        });
        const tokens = grammar.value(
          mode.parameters.kind === "any"
            ? { kind: "object", properties: [], free: false }
            : mode.parameters,
        );
        let count = 0;
        let next = tokens.next();
        for (; !next.done; next = tokens.next()) count += 1;
        const args = JSON.parse(next.value) as Record<string, unknown>;
        yield { type: "functionCall", call: { name: mode.name, args }, tokens: Math.max(1, count) };
        return;
      }
      case "audio": {
        const samples = synthesizeSpeech(mode.text, mode.voiceName);
        const perChunk = Math.round(AUDIO_CHUNK_SECONDS * SPEECH_SAMPLE_RATE);
        for (let offset = 0; offset < samples.length; offset += perChunk) {
          const slice = samples.subarray(offset, Math.min(samples.length, offset + perChunk));
          yield {
            type: "audio",
            data: pcmBytes(slice),
            tokens: Math.max(
              1,
              Math.round((slice.length / SPEECH_SAMPLE_RATE) * SPEECH_TOKENS_PER_SECOND),
            ),
          };
        }
        return;
      }
    }
  }

  private *thinking(): Generator<Step, void> {
    const state = this.options.thought;
    yield* this.freeText(
      state,
      state.model.symbols.thoughtStart,
      "thought",
      this.options.thinkingBudget,
    );
    // The visible answer starts on its own after the thought summary.
  }

  private *freeText(
    state: DecodingState,
    start: number,
    phase: "thought" | "answer",
    limit: number,
  ): Generator<Step, void> {
    const history = [start];
    const end = state.model.symbols.end;
    let previous = "";
    const vocabulary = state.model.vocabulary;
    // The first token opens a sentence (never the end, whitespace or trailing punctuation);
    // the text ends only after a sentence or line ends, never in the middle of a word.
    const opening = (id: number) => id !== end && opensText(vocabulary.tokenText(id));
    const closing = (id: number) => id !== end || /[.!?:;)"'\]*\n]\s*$/.test(previous);
    for (let count = 0; count < limit; count++) {
      const emission = sampleStep(state, history, count === 0 ? opening : closing);
      if (!emission || emission.id === end) return;
      pushHistory(history, emission.id);
      previous = vocabulary.tokenText(emission.id);
      yield { type: "token", phase, emission };
    }
  }
}

function opensText(text: string): boolean {
  return /^[\p{Lu}\p{N}*#"'(\[-]/u.test(text);
}
