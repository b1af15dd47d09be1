/**
 * The generation core's chunks as an interaction's steps and step events: thinking becomes a
 * `thought` step (summaries as `thought_summary` deltas, then its signature), text and media
 * a `model_output` step, function calls `function_call` steps, code execution its call and
 * result steps, search and URL context their call and result steps. Each step is opened with
 * `step.start`, filled with `step.delta`s as chunks arrive, and closed with `step.stop` before
 * the next opens (recorded 2026-05 on). The service always shows thinking as a signed thought
 * step ahead of the answer, also where generateContent gives no signature (2.5 without
 * functions) or gives it last (Gemini 3 streams): the step is written when the answer starts,
 * signed with the answer's own signature if its first part has one, else with one of the
 * engine's (lib/engine/tokens/thought-signature). Key order follows the recorded events
 * (`type` last in steps and deltas, `event_type` last in events).
 */
import type {
  InteractionContent,
  InteractionEvent,
  InteractionStatus,
  MediaContent,
  Step,
} from "@/lib/gemini/interactions/types";
import type {
  Candidate,
  GenerateContentResponse,
  GroundingMetadata,
  Part,
  UrlContextMetadata,
  UsageMetadata,
} from "@/lib/gemini/types";
import { copyMember, copyWithPieces } from "@/lib/runtime/pieced-text";
import { makeThoughtSignature } from "../tokens/thought-signature";
import { randomBytes } from "node:crypto";

export type StepEvent = Extract<
  InteractionEvent,
  { event_type: "step.start" | "step.delta" | "step.stop" }
>;

type OpenKind = "thought" | "model_output" | "other";

/** An id for a call the generation made without one (the interaction's steps always have one). */
function callId(): string {
  return randomBytes(6).toString("base64url");
}

export class StepAssembler {
  readonly steps: Step[] = [];
  private open: OpenKind | null = null;
  private thoughtWritten = false;
  private usage: UsageMetadata | undefined;
  private candidate: Candidate | undefined;
  private blocked: string | undefined;
  private groundingWritten = false;

  /** Adds a chunk; answers the step events it makes. */
  push(chunk: GenerateContentResponse): StepEvent[] {
    const events: StepEvent[] = [];
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason) this.blocked = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    if (!candidate) return events;
    this.candidate = { ...this.candidate, ...candidate };
    for (const part of candidate.content?.parts ?? []) this.part(part, events);
    if (candidate.finishReason) this.grounding(candidate, events);
    return events;
  }

  /** Closes what is open (and writes thinking that no answer followed); answers those events. */
  end(): StepEvent[] {
    const events: StepEvent[] = [];
    this.thoughtBeforeAnswer(undefined, events);
    this.close(events);
    if (this.status() === "failed") this.failure(events);
    return events;
  }

  /** The interaction's status once the generation has ended. */
  status(): Exclude<InteractionStatus, "queued" | "in_progress" | "cancelled"> {
    if (this.blocked) return "failed";
    const reason = this.candidate?.finishReason;
    if (reason === "MAX_TOKENS") return "incomplete";
    if (reason && reason !== "STOP" && reason !== "FINISH_REASON_UNSPECIFIED") return "failed";
    return this.steps.some((step) => step.type === "function_call")
      ? "requires_action"
      : "completed";
  }

  get usageMetadata(): UsageMetadata | undefined {
    return this.usage;
  }

  private get index(): number {
    return this.steps.length - 1;
  }

  private start(step: Step, kind: OpenKind, events: StepEvent[]): void {
    this.close(events);
    this.steps.push(step);
    this.open = kind;
    events.push({ index: this.index, step: startShape(step), event_type: "step.start" });
  }

  private delta(delta: Record<string, unknown> & { type: string }, events: StepEvent[]): void {
    events.push({ index: this.index, delta, event_type: "step.delta" });
  }

  private close(events: StepEvent[]): void {
    if (this.open === null) return;
    events.push({ index: this.index, event_type: "step.stop" });
    this.open = null;
  }

  private part(part: Part, events: StepEvent[]): void {
    if (part.thought && part.text !== undefined) {
      if (this.open !== "thought") this.start({ type: "thought" }, "thought", events);
      const step = this.steps[this.index] as Extract<Step, { type: "thought" }>;
      appendText((step.summary ??= []), part.text);
      this.delta({ content: { text: part.text, type: "text" }, type: "thought_summary" }, events);
      return;
    }
    // An empty part carries only the late signature of thinking already written.
    const empty = part.text === "" && !part.functionCall && !part.inlineData;
    if (empty && this.thoughtWritten) return;
    this.thoughtBeforeAnswer(part.thoughtSignature, events);
    if (empty) return;
    if (part.text !== undefined) this.output({ type: "text", text: part.text }, events);
    else if (part.inlineData) {
      const media = {
        type: part.inlineData.mimeType.startsWith("audio/") ? "audio" : "image",
        data: "",
        mime_type: part.inlineData.mimeType,
      } as InteractionContent;
      // The generation's bytes, not their base64 (lib/runtime/pieced-text.ts).
      copyMember(part.inlineData, "data", media, "data");
      this.output(media, events);
    } else if (part.functionCall) {
      const id = part.functionCall.id ?? callId();
      const args = part.functionCall.args ?? {};
      const name = part.functionCall.name;
      this.start({ arguments: {}, id, name, type: "function_call" } as Step, "other", events);
      this.steps[this.index] = { arguments: args, id, name, type: "function_call" } as Step;
      this.delta({ arguments: JSON.stringify(args), type: "arguments_delta" }, events);
      this.close(events);
    } else if (part.executableCode) {
      const args = {
        code: part.executableCode.code,
        language: part.executableCode.language.toLowerCase(),
      };
      const id = callId();
      this.start({ arguments: {}, id, type: "code_execution_call" } as Step, "other", events);
      this.steps[this.index] = { arguments: args, id, type: "code_execution_call" } as Step;
      this.delta({ arguments: args, type: "code_execution_call" }, events);
      this.close(events);
    } else if (part.codeExecutionResult) {
      const call = this.steps.findLast((step) => step.type === "code_execution_call");
      const failed = part.codeExecutionResult.outcome !== "OUTCOME_OK";
      const result = part.codeExecutionResult.output ?? "";
      const callIdOf = call && "id" in call ? call.id : callId();
      this.start(
        { call_id: callIdOf, result: "", type: "code_execution_result" } as Step,
        "other",
        events,
      );
      this.steps[this.index] = {
        call_id: callIdOf,
        ...(failed ? { is_error: true } : {}),
        result,
        type: "code_execution_result",
      } as Step;
      this.delta(
        { ...(failed ? { is_error: true } : {}), result, type: "code_execution_result" },
        events,
      );
      this.close(events);
    }
  }

  private output(content: InteractionContent, events: StepEvent[]): void {
    if (this.open !== "model_output") this.start({ type: "model_output" }, "model_output", events);
    const step = this.steps[this.index] as Extract<Step, { type: "model_output" }>;
    if (content.type === "text") appendText((step.content ??= []), content.text);
    else (step.content ??= []).push(content);
    this.delta(
      content.type === "text"
        ? { text: content.text, type: "text" }
        : (copyWithPieces(content) as MediaContent & Record<string, unknown>),
      events,
    );
  }

  /** The thought step, once, when the answer starts (or ends without one) after thinking. */
  private thoughtBeforeAnswer(signature: string | undefined, events: StepEvent[]): void {
    if (this.thoughtWritten) return;
    this.thoughtWritten = true;
    const thoughts = this.usage?.thoughtsTokenCount ?? 0;
    const open = this.open === "thought";
    if (!open && thoughts === 0 && signature === undefined) return;
    if (!open) this.start({ type: "thought" }, "thought", events);
    const step = this.steps[this.index] as Extract<Step, { type: "thought" }>;
    step.signature = signature ?? makeThoughtSignature(thoughts);
    this.delta({ signature: step.signature, type: "thought_signature" }, events);
    this.close(events);
  }

  /** Search and URL context the generation used, as their call and result steps. */
  private grounding(candidate: Candidate, events: StepEvent[]): void {
    if (this.groundingWritten) return;
    this.groundingWritten = true;
    const search: GroundingMetadata | undefined = candidate.groundingMetadata;
    if (search?.webSearchQueries?.length) {
      const id = callId();
      this.toolPair(
        { arguments: { queries: search.webSearchQueries }, id, type: "google_search_call" },
        {
          call_id: id,
          result: [
            {
              ...(search.searchEntryPoint?.renderedContent
                ? { search_suggestions: search.searchEntryPoint.renderedContent }
                : {}),
            },
          ],
          type: "google_search_result",
        },
        events,
      );
    }
    const urls: UrlContextMetadata | undefined = candidate.urlContextMetadata;
    if (urls?.urlMetadata?.length) {
      const id = callId();
      const list = urls.urlMetadata.map((entry) => entry.retrievedUrl ?? "");
      this.toolPair(
        { arguments: { urls: list }, id, type: "url_context_call" },
        {
          call_id: id,
          result: urls.urlMetadata.map((entry) => ({
            status:
              entry.urlRetrievalStatus === "URL_RETRIEVAL_STATUS_SUCCESS" ? "success" : "error",
            url: entry.retrievedUrl ?? "",
          })),
          type: "url_context_result",
        },
        events,
      );
    }
  }

  private toolPair(call: Step, result: Step, events: StepEvent[]): void {
    for (const step of [call, result]) {
      const { type, ...fields } = step as Step & Record<string, unknown>;
      this.start(step, "other", events);
      const delta =
        "arguments" in fields ? { arguments: fields.arguments } : { result: fields.result };
      this.delta({ ...delta, type }, events);
      this.close(events);
    }
  }

  /** A blocked prompt or answer: a model_output step that says why, instead of an answer. */
  private failure(events: StepEvent[]): void {
    const reason = this.blocked ?? this.candidate?.finishReason ?? "OTHER";
    const message = this.blocked
      ? `The prompt was blocked (${reason}).`
      : `The answer was stopped (${reason}).`;
    this.start({ error: { code: 3, message }, type: "model_output" }, "model_output", events);
    this.close(events);
  }
}

/** The step as `step.start` shows it: its kind and ids, the content still to come in deltas. */
function startShape(step: Step): Step {
  switch (step.type) {
    case "thought":
      return { type: "thought" };
    case "model_output":
      return "error" in step && step.error ? step : { type: "model_output" };
    default:
      return step;
  }
}

/** Appends streamed text to a content list, extending its last text item. */
function appendText(list: InteractionContent[], text: string): void {
  const last = list.at(-1);
  if (last?.type === "text") last.text += text;
  else list.push({ text, type: "text" } as InteractionContent);
}
