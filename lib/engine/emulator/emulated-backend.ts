/**
 * The scenario layer in front of the local engine: a Backend that, for each call, asks the
 * caller's scenarios first and otherwise passes the call on unchanged. A scripted answer is
 * returned (or thrown) through the Backend interface like the engine's own, so the handlers and
 * the one set of writers (SSE, JSON array, error bodies) frame it exactly as any answer.
 * Content answers are given after the engine's checks of the request (a bad request is still the
 * service's 400); errors, bare statuses, resets and delays before any.
 */
import type { GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import { openaiOperations } from "@/lib/engine/openai/openai-operations";
import { translateChatRequest } from "@/lib/engine/openai/chat-request";
import { findModel } from "@/lib/engine/catalog";
import { readChatCompletionRequest } from "@/lib/gemini/openai/validate-openai";
import type { LocalBackend } from "@/lib/engine/local-backend";
import { currentExchange } from "./exchange-scope";
import { scriptedError, TransportFault } from "./faults";
import { GENERATION_OPERATIONS, METHOD_OPERATIONS, STREAM_METHODS } from "./operations";
import { readRequestFacts } from "./request-facts";
import type { ScenarioHit, ScenarioRegistry } from "./scenario-registry";
import type { EmulatorControls } from "./controls";
import { answerKind, type ScriptedAnswer } from "./scenario-schema";
import { scriptedChunks } from "./scripted-answer";
import { paced, scriptedCore, streamFailure } from "./scripted-core";
import { withScriptedVectors } from "./scripted-vectors";
import { sleep } from "./sleep";
import {
  iterateWithGenerationCharge,
  iterateWithScriptedGeneration,
  withGenerationCharge,
  withScriptedGeneration,
  type GenerationCharge,
  type ScriptedGeneration,
} from "./generation-scope";

/** Where each method's model and request are among its arguments. */
const REQUEST_ARGUMENTS: Record<
  string,
  (args: unknown[]) => { model?: unknown; request?: unknown }
> = {
  generateContent: ([model, request]) => ({ model, request }),
  streamGenerateContent: ([model, request]) => ({ model, request }),
  countTokens: ([model, request]) => ({ model, request }),
  createBatch: ([model, request]) => ({ model, request }),
  getModel: ([model]) => ({ model }),
  embedContent: ([model, request]) => ({ model, request }),
  batchEmbedContents: ([model, request]) => ({ model, request }),
  asyncBatchEmbedContent: ([model, request]) => ({ model, request }),
  openaiChatCompletion: ([body]) => ({
    model: (body as { model?: unknown } | undefined)?.model,
    request: body,
  }),
  openaiEmbeddings: ([body]) => ({
    model: (body as { model?: unknown } | undefined)?.model,
    request: body,
  }),
  createInteraction: ([body]) => interactionArguments(body),
  streamCreateInteraction: ([body]) => interactionArguments(body),
  createCachedContent: ([request]) => ({
    model: (request as { model?: unknown } | undefined)?.model,
    request,
  }),
};

/** An Interactions API create body (its JSON, as parsed at the edge): its model (or agent). */
function interactionArguments(body: unknown): { model?: unknown; request?: unknown } {
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return { model: fields.model ?? fields.agent, request: body };
}

/** Methods the router calls for itself (not a caller's operation): never scripted. */
const NOT_SCRIPTED = new Set(["uploadSessionOwner", "close"]);

export interface EmulatorParts {
  scenarios: ScenarioRegistry;
  controls?: EmulatorControls;
}

/** The local backend with the scenario layer in front of each of its operations. */
export function emulatedBackend(local: LocalBackend, parts: EmulatorParts): LocalBackend {
  const wrapped: Record<string, unknown> = { ...local };
  for (const [name, value] of Object.entries(local)) {
    if (typeof value !== "function" || NOT_SCRIPTED.has(name)) continue;
    const operation = METHOD_OPERATIONS[name];
    if (operation === undefined) continue;
    const method = (value as (...args: unknown[]) => unknown).bind(local);
    wrapped[name] =
      name === "streamGenerateContent"
        ? scriptedStream(local, parts, method as StreamMethod)
        : STREAM_METHODS.has(name)
          ? failingStream(
              name,
              operation,
              parts,
              method as (...args: unknown[]) => AsyncIterable<unknown>,
            )
          : scriptedUnary(
              name,
              operation,
              local,
              parts,
              method as (...args: unknown[]) => Promise<unknown>,
            );
    if (operation === "interactions.create")
      wrapped[name] = chargingInteractions(local, parts, name, wrapped[name] as InteractionMethod);
  }
  return wrapped as unknown as LocalBackend;
}

type InteractionMethod = (...args: unknown[]) => Promise<unknown> | AsyncIterable<unknown>;

/** An interaction's create, its generation counted against the caller's quotas (generation-scope.ts). */
function chargingInteractions(
  local: LocalBackend,
  parts: EmulatorParts,
  name: string,
  method: InteractionMethod,
): InteractionMethod {
  const charge = interactionCharge(local, parts);
  return STREAM_METHODS.has(name)
    ? (...args) =>
        iterateWithGenerationCharge(charge, () => method(...args) as AsyncIterable<unknown>)
    : (...args) => withGenerationCharge(charge, () => method(...args));
}

type StreamMethod = (
  model: string,
  request: GenerateContentRequest,
  context: OperationContext,
) => AsyncIterable<GenerateContentResponse>;

/** The scenario that answers this call, if any; noted on the request's log entry. */
function findScenario(
  parts: EmulatorParts,
  name: string,
  operation: string,
  args: unknown[],
): ScenarioHit | null {
  const context = args[args.length - 1] as OperationContext;
  const ownerId = context.caller.ownerId;
  const exchange = currentExchange();
  const { model, request } = REQUEST_ARGUMENTS[name]?.(args) ?? {};
  if (exchange && typeof model === "string")
    exchange.notes.model ??= model.replace(/^models\//, "");
  if (parts.scenarios.isEmpty(ownerId)) return null;
  const hit = parts.scenarios.take(
    ownerId,
    readRequestFacts({
      operation,
      ...(typeof model === "string" ? { model } : {}),
      request,
      headers: exchange?.headers ?? null,
    }),
  );
  if (hit && exchange) {
    exchange.notes.scenarioId = hit.scenario.id;
    if (hit.scenario.input.name !== undefined)
      exchange.notes.scenarioName = hit.scenario.input.name;
  }
  return hit;
}

/** Throws what a failing answer stands for; returns for the others. */
function throwIfFailure(answer: ScriptedAnswer): void {
  switch (answerKind(answer)) {
    case "error":
      throw scriptedError(answer.error!);
    case "httpStatus":
      throw new TransportFault({
        kind: "status",
        httpStatus: answer.httpStatus!,
        bodyText: answer.bodyText ?? "",
      });
    case "reset":
      throw new TransportFault({ kind: "reset" });
    default:
  }
}

/**
 * Counts a generation against the caller's quotas (the service refuses over them before any
 * answer, scripted or not); the prompt is counted only when a token quota is set. A chat
 * completion of the OpenAI-compatible endpoint is the generation it translates to, on the same
 * model's quotas.
 */
async function chargeQuota(
  local: LocalBackend,
  parts: EmulatorParts,
  operation: string,
  args: unknown[],
): Promise<void> {
  const context = args[args.length - 1] as OperationContext;
  if (!parts.controls?.hasQuotas(context.caller.ownerId)) return;
  const generation = generationOf(operation, args);
  if (generation)
    await chargeGeneration(local, parts, generation.model, generation.request, context);
}

/** Counts one generation of `request` on `model` against the caller's quotas. */
async function chargeGeneration(
  local: LocalBackend,
  parts: EmulatorParts,
  model: string,
  request: GenerateContentRequest,
  context: OperationContext,
): Promise<void> {
  const controls = parts.controls;
  const ownerId = context.caller.ownerId;
  if (!controls?.hasQuotas(ownerId)) return;
  const tokens = controls.countsInputTokens(ownerId)
    ? (await local.countTokens(model, { generateContentRequest: { ...request, model } }, context))
        .totalTokens
    : 0;
  controls.chargeQuota(ownerId, model.replace(/^models\//, ""), tokens);
}

/** The charge an interaction's generation makes (the engine builds its request, then calls it). */
function interactionCharge(local: LocalBackend, parts: EmulatorParts): GenerationCharge {
  return (model, request, context) => chargeGeneration(local, parts, model, request, context);
}

/** The model and generate request an operation runs, for those that generate. */
function generationOf(
  operation: string,
  args: unknown[],
): { model: string; request: GenerateContentRequest } | undefined {
  if (GENERATION_OPERATIONS.includes(operation)) {
    const [model, request] = args as [string, GenerateContentRequest];
    return { model, request };
  }
  if (operation === "openai.chat.completions") {
    // A body the endpoint refuses is refused there, with its own error, before any quota.
    let chat;
    try {
      chat = readChatCompletionRequest(args[0]);
    } catch {
      return undefined;
    }
    const translated = translateChatRequest(chat, findModel(chat.model)?.traits.thinking);
    return { model: translated.model, request: translated.request };
  }
  return undefined;
}

function scriptedUnary(
  name: string,
  operation: string,
  local: LocalBackend,
  parts: EmulatorParts,
  method: (...args: unknown[]) => Promise<unknown>,
): (...args: unknown[]) => Promise<unknown> {
  return async (...args: unknown[]) => {
    await chargeQuota(local, parts, operation, args);
    const hit = findScenario(parts, name, operation, args);
    if (!hit) return method(...args);
    const { answer } = hit;
    const scenarioId = hit.scenario.id;
    const context = args[args.length - 1] as OperationContext;
    await sleep(answer.delayMs ?? 0, context.signal);
    throwIfFailure(answer);
    const kind = answerKind(answer);
    if (kind === "body") return answer.body;
    if (kind === "embedding" || kind === "embeddings")
      return withScriptedVectors(name, await method(...args), answer, scenarioId);
    // Waited above: the chunks' own waits are a stream's.
    const content = { ...answer, delayMs: 0 };
    if (name === "openaiChatCompletion" && isScriptedContent(kind))
      return openaiOperations(
        scriptedCore(local, content, scenarioId),
        local.storage.files,
      ).openaiChatCompletion(args[0], context);
    // A whole answer has no chunks to send before a scripted stream failure: it fails at once.
    if (answer.failAfterChunks !== undefined) throw streamFailure(answer);
    if (kind === "delay") return method(...args);
    if (name === "createInteraction")
      return withScriptedGeneration(interactionAnswer(content, scenarioId), () => method(...args));
    if (!GENERATION_OPERATIONS.includes(operation)) return method(...args);
    const [model, request] = args as [string, GenerateContentRequest, OperationContext];
    return scriptedCore(local, content, scenarioId).generateContent(model, request, context);
  };
}

function scriptedStream(
  local: LocalBackend,
  parts: EmulatorParts,
  method: StreamMethod,
): StreamMethod {
  return async function* (model, request, context) {
    await chargeQuota(local, parts, "streamGenerateContent", [model, request, context]);
    const hit = findScenario(parts, "streamGenerateContent", "streamGenerateContent", [
      model,
      request,
      context,
    ]);
    if (!hit) {
      yield* method(model, request, context);
      return;
    }
    const { answer } = hit;
    const kind = answerKind(answer);
    if (!isScriptedContent(kind)) {
      await sleep(answer.delayMs ?? 0, context.signal);
      throwIfFailure(answer);
      if (kind === "body") {
        yield answer.body as GenerateContentResponse;
        return;
      }
      yield* method(model, request, context);
      return;
    }
    yield* scriptedCore(local, answer, hit.scenario.id).streamGenerateContent(
      model,
      request,
      context,
    );
  };
}

/**
 * A stream other than a generation's (an interaction's events): a scenario can delay it, fail
 * it before its first item (an error, a bare status, a reset) or answer one item as `body`.
 */
function failingStream(
  name: string,
  operation: string,
  parts: EmulatorParts,
  method: (...args: unknown[]) => AsyncIterable<unknown>,
): (...args: unknown[]) => AsyncIterable<unknown> {
  return async function* (...args: unknown[]) {
    const hit = findScenario(parts, name, operation, args);
    if (hit) {
      const context = args[args.length - 1] as OperationContext;
      const content = isScriptedContent(answerKind(hit.answer));
      // A content answer's waits are its chunks' (paced by the interaction's generation).
      if (!content) await sleep(hit.answer.delayMs ?? 0, context.signal);
      throwIfFailure(hit.answer);
      if (hit.answer.body !== undefined) {
        yield hit.answer.body;
        return;
      }
      if (content && name === "streamCreateInteraction") {
        yield* iterateWithScriptedGeneration(interactionAnswer(hit.answer, hit.scenario.id), () =>
          method(...args),
        );
        return;
      }
    }
    yield* method(...args);
  };
}

/** An interaction's generation answered by a scenario: its chunks, paced as scripted. */
function interactionAnswer(answer: ScriptedAnswer, scenarioId: string): ScriptedGeneration {
  return async function* (input) {
    yield* paced(await scriptedChunks(answer, input, scenarioId), answer, input.signal);
  };
}

/** Kinds that answer with content (chunks of a generation), not a failure, a body or vectors. */
function isScriptedContent(kind: string): boolean {
  return (
    kind === "text" ||
    kind === "chunks" ||
    kind === "functionCalls" ||
    kind === "json" ||
    kind === "safetyBlock"
  );
}
