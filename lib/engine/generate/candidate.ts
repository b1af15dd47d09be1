/**
 * One candidate's generation, advanced a few tokens at a time so several candidates stream in
 * lock-step: optional thinking (thought tokens, thought parts only with includeThoughts),
 * then the answer in its mode (the steps of answer-steps.ts: text, constrained JSON, bare
 * enum, function call, speech; a picture after a text answer), with stop sequences, maxOutputTokens (thinking counts toward it, as on the service),
 * logprobs and the candidate safety check applied as the text is produced. Where the
 * family's answers put the thoughtSignature and the finish reason, and when a stream shows
 * thought summaries, come from its answer traits (answer-shape.ts).
 */
import type { FinishReason, LogprobsCandidate, Part, SafetyRating } from "@/lib/gemini/types";
import { setPiecedText } from "@/lib/runtime/pieced-text";
import type { CandidateSafety } from "@/lib/engine/safety";
import { newFunctionCallId } from "./answer-shape";
import { answerSteps, thinkingSteps, type AnswerMode, type Step } from "./answer-steps";
import type { DecodingState, Emission } from "./decoding";
import { PICTURE_MIME_TYPE, PICTURE_TOKENS } from "./picture";
import { SPEECH_MIME_TYPE } from "./speech";
import { StopSequenceFilter } from "./stop-sequences";
import { TokenTextDecoder } from "./vocabulary";

export type { AnswerMode } from "./answer-steps";

export interface CandidateOptions {
  index: number;
  answer: DecodingState;
  thought: DecodingState;
  mode: AnswerMode;
  /**
   * The picture a text answer ends with, or is alone (responseModalities IMAGE; picture.ts);
   * `png` null when the output limit cannot hold one.
   */
  picture?: { png: Uint8Array | null; alone: boolean };
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

/** What one advance produced, before it becomes a delta. */
interface Produced {
  thoughtText: string;
  answerText: string;
  extraParts: Part[];
  chosen: LogprobsCandidate[];
  top: { candidates: LogprobsCandidate[] }[];
  reason?: FinishReason;
}

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
  /** Of answerTokens, those of speech and of pictures (usage reports them per modality). */
  audioTokens = 0;
  pictureTokens = 0;
  private answering = false;
  /** The answer ended because what came next would not fit in maxOutputTokens. */
  private cutByLimit = false;

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
    return this.deliver(this.produce(budget));
  }

  /** Takes up to `budget` steps (a function call counts none), until a finish reason. */
  private produce(budget: number): Produced {
    const output: Produced = {
      thoughtText: "",
      answerText: "",
      extraParts: [],
      chosen: [],
      top: [],
    };
    const silent = this.thinkingSilently;
    let called = false;
    for (let produced = 0; produced < budget;) {
      // Send the first answer token at once rather than filling a long silent-thinking slice
      // (a function call still takes the finish reason that follows it).
      if (silent && this.answering && !called) break;
      if (this.thoughtTokens + this.answerTokens >= this.options.maxOutputTokens) {
        output.reason = "MAX_TOKENS";
        break;
      }
      const next = this.steps.next();
      if (next.done) {
        output.reason = this.cutByLimit ? "MAX_TOKENS" : "STOP";
        break;
      }
      const step = next.value;
      if (step.type === "token") {
        produced += 1;
        if (step.phase === "thought") this.takeThought(step.emission, output);
        else if (this.takeAnswerToken(step.emission, output)) {
          output.reason = "STOP";
          break;
        }
      } else if (step.type === "functionCall") {
        // Not counted against this delta's budget: a call goes whole, with the finish reason
        // that follows it (the service sends them on one event).
        called = true;
        this.takeFunctionCall(step, output);
      } else {
        produced += step.tokens;
        this.takeMedia(step, output);
      }
    }
    if (output.reason === "STOP" || output.reason === "MAX_TOKENS")
      output.answerText += this.decoder.end() + this.stops.flush();
    if (output.reason === "MAX_TOKENS" && this.options.includeThoughts) {
      // Thinking cut short by the limit shows its summary, even one held back.
      output.thoughtText =
        (this.heldThoughts ?? "") + output.thoughtText + this.thoughtDecoder.end();
      this.heldThoughts = null;
    }
    return output;
  }

  private takeThought(emission: Emission, output: Produced): void {
    this.thoughtTokens += 1;
    if (this.options.includeThoughts) output.thoughtText += this.thoughtText(emission.id);
  }

  /** Adds an answer token (and its logprobs); true when a stop sequence ends the answer. */
  private takeAnswerToken(emission: Emission, output: Produced): boolean {
    const vocabulary = this.options.answer.model.vocabulary;
    this.heldThoughts = null;
    this.answerTokens += 1;
    this.logprobSum += emission.logProbability;
    if (this.options.responseLogprobs) {
      output.chosen.push({
        token: vocabulary.tokenText(emission.id),
        tokenId: emission.id,
        logProbability: emission.logProbability,
      });
      if (emission.top.length) {
        output.top.push({
          candidates: emission.top.map((entry) => ({
            token: vocabulary.tokenText(entry.id),
            tokenId: entry.id,
            logProbability: entry.logProbability,
          })),
        });
      }
    }
    const filtered = this.stops.push(this.decoder.push(emission.id));
    output.answerText += filtered.emit;
    return filtered.stopped;
  }

  private takeFunctionCall(step: Extract<Step, { type: "functionCall" }>, output: Produced): void {
    this.heldThoughts = null;
    this.answerTokens += step.tokens;
    this.logprobSum += step.logProbability;
    const call = this.options.functionCallIds
      ? { ...step.call, id: newFunctionCallId() }
      : step.call;
    output.extraParts.push({ functionCall: call });
  }

  private takeMedia(step: Extract<Step, { type: "audio" | "picture" }>, output: Produced): void {
    this.heldThoughts = null;
    this.answerTokens += step.tokens;
    if (step.type === "audio") this.audioTokens += step.tokens;
    else this.pictureTokens += step.tokens;
    const mimeType = step.type === "audio" ? SPEECH_MIME_TYPE : PICTURE_MIME_TYPE;
    // The step's bytes themselves, off the heap: their base64 is made when the answer is
    // written (lib/runtime/pieced-text.ts), not held as a string for as long as the answer.
    const inlineData = { mimeType, data: "" };
    setPiecedText(inlineData, "data", [step.data]);
    output.extraParts.push({ inlineData });
  }

  /**
   * The delta of what was produced: its parts unless the safety check blocks the answer, the
   * signature where it goes, and the finish reason (on this delta or on one of its own).
   */
  private deliver(output: Produced): CandidateDelta | null {
    const options = this.options;
    let reason = output.reason;
    const verdict = options.safety.check(output.answerText);
    const delta: CandidateDelta = {
      index: options.index,
      parts: [],
      chosen: output.chosen,
      top: output.top,
    };
    if (verdict.blocked) {
      reason = "SAFETY";
    } else {
      if (output.thoughtText) delta.parts.push({ text: output.thoughtText, thought: true });
      if (output.answerText) delta.parts.push({ text: output.answerText });
      delta.parts.push(...output.extraParts);
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
    if (!delta.parts.length && !delta.finishReason && !output.chosen.length && !this.pendingFinish)
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
    if (options.thinkingTokens > 0) yield* thinkingSteps(options.thought, options.thinkingTokens);
    this.answering = true;
    const picture = options.picture;
    if (!picture?.alone) yield* answerSteps(options.mode, options.answer, this.remainingTokens());
    if (!picture) return;
    // A picture that no longer fits in the output limit is not sent: the limit ends the answer.
    if (picture.png && this.remainingTokens() >= PICTURE_TOKENS)
      yield { type: "picture", data: picture.png, tokens: PICTURE_TOKENS };
    else this.cutByLimit = true;
  }

  /** Output tokens the candidate may still produce under maxOutputTokens. */
  private remainingTokens(): number {
    return this.options.maxOutputTokens - this.thoughtTokens - this.answerTokens;
  }
}
