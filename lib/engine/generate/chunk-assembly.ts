/**
 * The chunks of a stream, from what the candidates produced at each step: a candidate per
 * delta in the family's shape (answer-shape.ts), a built-in tool's parts and metadata, the
 * citations of each candidate's answer text on its last chunk, and the running usage.
 */
import type {
  Candidate,
  GenerateContentRequest,
  GenerateContentResponse,
  LogprobsResult,
} from "@/lib/gemini/types";
import type { ToolAnswer } from "@/lib/engine/tools";
import { reportedRatings, shapeCandidate, type AnswerShape } from "./answer-shape";
import type { CandidateDelta, CandidateRun } from "./candidate";
import { findCitations, type CitationIndex } from "./citations";
import type { UsageReport } from "./usage";

export interface ChunkContext {
  request: GenerateContentRequest;
  shape: AnswerShape;
  toolAnswer: ToolAnswer | null;
  citations: CitationIndex;
  usage: UsageReport;
  modelVersion: string;
  responseId: string;
}

/** Assembles one request's chunks; it remembers what each candidate has sent so far. */
export class ChunkAssembler {
  private readonly toolPartsSent = new Set<number>();
  /** Each candidate's answer text so far; its citations go on its last chunk (the one with finishReason). */
  private readonly answerTexts = new Map<number, string>();

  constructor(private readonly context: ChunkContext) {}

  /** The chunk for one step's deltas, with usage counted over every run. */
  chunk(deltas: readonly CandidateDelta[], runs: readonly CandidateRun[]): GenerateContentResponse {
    const { request, shape, toolAnswer } = this.context;
    const candidatesTokens = runs.reduce((sum, run) => sum + run.answerTokens, 0);
    const thoughtTokens = runs.reduce((sum, run) => sum + run.thoughtTokens, 0);
    const candidates = deltas.map(toCandidate);
    if (toolAnswer) attachToolAnswer(toolAnswer, deltas, candidates, this.toolPartsSent);
    candidates.forEach((candidate, position) => {
      shapeCandidate(candidate, deltas[position]!.index, shape);
      if (candidate.safetyRatings) {
        const reported = reportedRatings(candidate.safetyRatings, request);
        if (reported.length) candidate.safetyRatings = reported;
        else delete candidate.safetyRatings;
      }
    });
    for (const [position, delta] of deltas.entries()) this.cite(delta, candidates[position]!);
    return {
      candidates,
      usageMetadata: this.context.usage(
        candidatesTokens,
        thoughtTokens,
        runs.some((run) => run.audio),
      ),
      modelVersion: this.context.modelVersion,
      responseId: this.context.responseId,
    };
  }

  /** Adds the delta's answer text to its candidate's, and cites it all on the last chunk. */
  private cite(delta: CandidateDelta, candidate: Candidate): void {
    const citations = this.context.citations;
    const text = this.answerTexts.get(delta.index) ?? "";
    const added = delta.parts
      .filter((part) => part.text !== undefined && !part.thought && !part.functionCall)
      .map((part) => part.text)
      .join("");
    this.answerTexts.set(delta.index, text + added);
    if (delta.finishReason && delta.finishReason !== "SAFETY" && citations.sources.length) {
      const citationSources = findCitations(text + added, citations);
      if (citationSources.length) candidate.citationMetadata = { citationSources };
    }
  }
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
