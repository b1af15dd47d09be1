/**
 * One candidate's generation, advanced a few tokens at a time so several candidates stream in
 * lock-step: optional thinking (thought tokens, thought parts only with includeThoughts),
 * then the answer in its mode (text, constrained JSON, bare enum, function call, speech),
 * with stop sequences, maxOutputTokens (thinking counts toward it, as on the service),
 * logprobs and the candidate safety check applied as the text is produced. Where the
 * family's answers put the thoughtSignature and the finish reason, and when a stream shows
 * thought summaries, come from its answer traits (answer-shape.ts).
 */
import type {
  FinishReason,
  FunctionCall,
  LogprobsCandidate,
  Part,
  SafetyRating,
} from "@/lib/gemini/types";
import type { CandidateSafety } from "@/lib/engine/safety";
import { newFunctionCallId } from "./answer-shape";
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
  /** How many tokens it thinks before answering (thinking-length.ts), unless maxOutputTokens cuts it. */
  thinkingTokens: number;
  includeThoughts: boolean;
  /**
   * Makes the answer's thoughtSignature (for the thinking it stands for: it counts those
   * tokens when sent back) and says where it goes: on the first answer part, or on the
   * finishing part unless the first answer part is a function call (answer-shape.ts).
   */
  signature?: {
    make: (thoughtTokens: number) => string;
    placement: "first-answer-part" | "finish";
  };
  maxOutputTokens: number;
  stopSequences: string[];
  responseLogprobs: boolean;
  /** Whether the last delta carries avgLogprobs. */
  avgLogprobs: boolean;
  /** Whether function calls carry an id. */
  functionCallIds: boolean;
  /** The finish reason goes on a delta of its own with one empty text part (Gemini 3 streams). */
  finishOnEmptyPart: boolean;
  /** Thought summaries are held back until thinking reaches this many tokens (Gemini 3 streams). */
  thoughtsAfterTokens?: number;
  safety: CandidateSafety;
}

type Step =
  | { type: "token"; phase: "thought" | "answer"; emission: Emission }
  | { type: "functionCall"; call: FunctionCall; tokens: number; logProbability: number }
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
  /** The answer's first part has been sent (a later function call takes no signature). */
  private answerStarted = false;
  /** Thought summary text held back while a stream waits to show it (null: not holding). */
  private heldThoughts: string | null;
  /** A finish reason waiting for its own delta (finishOnEmptyPart). */
  private pendingFinish: CandidateDelta | null = null;
  private logprobSum = 0;
  private audioTokens = 0;
  private answering = false;

  constructor(private readonly options: CandidateOptions) {
    this.steps = this.run();
    this.decoder = new TokenTextDecoder(options.answer.model.vocabulary);
    this.thoughtDecoder = new TokenTextDecoder(options.answer.model.vocabulary);
    this.stops = new StopSequenceFilter(options.stopSequences);
    this.signaturePending = options.signature !== undefined;
    this.heldThoughts =
      options.includeThoughts && options.thoughtsAfterTokens !== undefined ? "" : null;
  }

  get index(): number {
    return this.options.index;
  }

  /** True while the candidate thinks without showing its thoughts: nothing to send yet. */
  get thinkingSilently(): boolean {
    return (
      !this.finished &&
      !this.answering &&
      this.options.thinkingTokens > 0 &&
      (!this.options.includeThoughts || this.heldThoughts !== null)
    );
  }

  /** Whether the answer is audio (usage is then reported as the AUDIO modality). */
  get audio(): boolean {
    return this.options.mode.kind === "audio";
  }

  /** Produces up to `budget` more tokens; returns what to send for this candidate (null: nothing new). */
  advance(budget: number): CandidateDelta | null {
    if (this.finished) return null;
    if (this.pendingFinish) {
      const finish = this.pendingFinish;
      this.pendingFinish = null;
      this.finished = true;
      return finish;
    }
    const options = this.options;
    const vocabulary = options.answer.model.vocabulary;
    let thoughtText = "";
    let answerText = "";
    const extraParts: Part[] = [];
    const chosen: LogprobsCandidate[] = [];
    const top: { candidates: LogprobsCandidate[] }[] = [];
    let reason: FinishReason | undefined;
    const silent = this.thinkingSilently;
    let called = false;
    for (let produced = 0; produced < budget;) {
      // Send the first answer token at once rather than filling a long silent-thinking slice
      // (a function call still takes the finish reason that follows it).
      if (silent && this.answering && !called) break;
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
          if (options.includeThoughts) thoughtText += this.thoughtText(step.emission.id);
          continue;
        }
        this.heldThoughts = null;
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
        this.heldThoughts = null;
        this.answerTokens += step.tokens;
        this.logprobSum += step.logProbability;
        // Not counted against this delta's budget: a call goes whole, with the finish reason
        // that follows it (the service sends them on one event).
        called = true;
        const call = options.functionCallIds
          ? { ...step.call, id: newFunctionCallId() }
          : step.call;
        extraParts.push({ functionCall: call });
      } else {
        this.heldThoughts = null;
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
    if (reason === "MAX_TOKENS" && options.includeThoughts) {
      // Thinking cut short by the limit shows its summary, even one held back.
      thoughtText = (this.heldThoughts ?? "") + thoughtText + this.thoughtDecoder.end();
      this.heldThoughts = null;
    }

    const verdict = options.safety.check(answerText);
    const delta: CandidateDelta = { index: options.index, parts: [], chosen, top };
    if (verdict.blocked) {
      reason = "SAFETY";
    } else {
      if (thoughtText) delta.parts.push({ text: thoughtText, thought: true });
      if (answerText) delta.parts.push({ text: answerText });
      delta.parts.push(...extraParts);
      this.placeSignature(delta.parts);
    }
    if (verdict.ratings.length) delta.safetyRatings = verdict.ratings;
    if (reason) {
      this.finishReason = reason;
      const finish = reason === "SAFETY" ? delta : this.finishingDelta(delta);
      finish.finishReason = reason;
      if (options.avgLogprobs && this.answerTokens > 0 && !this.audio)
        finish.avgLogprobs = this.logprobSum / this.answerTokens;
      if (reason === "SAFETY") {
        delta.chosen = [];
        delta.top = [];
      }
      if (finish === delta) this.finished = true;
      else this.pendingFinish = finish;
    }
    if (!delta.parts.length && !delta.finishReason && !chosen.length && !this.pendingFinish)
      return null;
    return delta;
  }

  /** The thought text a thought token adds to this delta: none while a stream holds it back. */
  private thoughtText(id: number): string {
    const piece = this.thoughtDecoder.push(id);
    if (this.heldThoughts === null) return piece;
    this.heldThoughts += piece;
    if (this.thoughtTokens < (this.options.thoughtsAfterTokens ?? 0)) return "";
    const released = this.heldThoughts;
    this.heldThoughts = null;
    return released;
  }

  /**
   * Puts a pending signature on the first answer part: always, or (placement "finish") only
   * when that part is a function call; a text answer's waits for the finishing part.
   */
  private placeSignature(parts: Part[]): void {
    const signature = this.options.signature;
    const firstAnswer = parts.find((part) => !part.thought);
    if (!signature || !firstAnswer || this.answerStarted) return;
    this.answerStarted = true;
    if (signature.placement === "first-answer-part" || firstAnswer.functionCall) {
      firstAnswer.thoughtSignature = signature.make(this.thoughtTokens);
      this.signaturePending = false;
    }
  }

  /**
   * The delta that carries the finish reason: this one, or (finishOnEmptyPart) one of its own
   * after it whose content is an empty text part, with the signature still pending.
   */
  private finishingDelta(delta: CandidateDelta): CandidateDelta {
    // Only a signature bound for the finishing part goes there; one waiting for an answer part
    // that never came (thinking cut short) is not sent.
    const signature =
      this.signaturePending && this.options.signature?.placement === "finish"
        ? this.options.signature
        : undefined;
    this.signaturePending = false;
    if (!this.options.finishOnEmptyPart) {
      if (signature)
        delta.parts.push({ text: "", thoughtSignature: signature.make(this.thoughtTokens) });
      return delta;
    }
    const emptyPart: Part = signature
      ? { text: "", thoughtSignature: signature.make(this.thoughtTokens) }
      : { text: "" };
    if (!delta.parts.length) {
      delta.parts.push(emptyPart);
      return delta;
    }
    return { index: delta.index, parts: [emptyPart], chosen: [], top: [] };
  }

  private *run(): Generator<Step, void> {
    const options = this.options;
    if (options.thinkingTokens > 0) yield* this.thinking();
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
          yield* this.freeText(state, state.model.symbols.answerStart, "answer");
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
        let logProbability = 0;
        let next = tokens.next();
        for (; !next.done; next = tokens.next()) {
          count += 1;
          logProbability += next.value.logProbability;
        }
        const args = JSON.parse(next.value) as Record<string, unknown>;
        yield {
          type: "functionCall",
          call: { name: mode.name, args },
          tokens: Math.max(1, count),
          logProbability,
        };
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

  /** Thinking runs to its chosen length (never to an end token), as the service's does in the mean. */
  private *thinking(): Generator<Step, void> {
    const state = this.options.thought;
    yield* this.freeText(
      state,
      state.model.symbols.thoughtStart,
      "thought",
      this.options.thinkingTokens,
    );
    // The visible answer starts on its own after the thought summary.
  }

  /** Sampled text after `start`: exactly `length` tokens, or (no length) until the model ends it. */
  private *freeText(
    state: DecodingState,
    start: number,
    phase: "thought" | "answer",
    length?: number,
  ): Generator<Step, void> {
    const history = [start];
    const end = state.model.symbols.end;
    let previous = "";
    const vocabulary = state.model.vocabulary;
    // The first token opens a sentence (never the end, whitespace or trailing punctuation); a
    // text the model ends itself ends only after a sentence or line ends, never mid-word.
    const opening = (id: number) => id !== end && opensText(vocabulary.tokenText(id));
    const closing =
      length !== undefined
        ? (id: number) => id !== end
        : (id: number) => id !== end || /[.!?:;)"'\]*\n]\s*$/.test(previous);
    for (let count = 0; count < (length ?? Number.POSITIVE_INFINITY); count++) {
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
