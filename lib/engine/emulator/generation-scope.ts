/**
 * What the emulator hands the generations an interaction starts. The Interactions API runs its
 * generation inside the engine (its request built from the conversation it continues, its
 * chunks turned into steps, events and usage by lib/engine/interactions), so a scenario's
 * answer and the caller's quotas reach it through the call that created the interaction (and a
 * background run it started), not through the Backend's arguments:
 * - a scripted answer: a scenario's text, JSON or function-call chunks in place of the
 *   engine's, and the interaction is framed, stored and resumed like any other;
 * - a charge: the generate request the engine built, counted against the caller's quotas
 *   before any answer, as generateContent's is.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import type { GenerationInput } from "@/lib/engine/generate";
import type { GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";

/** The chunks a scenario answers with, for the generation's input (its model, request, usage). */
export type ScriptedGeneration = (input: GenerationInput) => AsyncIterable<GenerateContentResponse>;

/** Counts a generation of `request` on `model` against the caller's quotas, or throws their 429. */
export type GenerationCharge = (
  model: string,
  request: GenerateContentRequest,
  context: OperationContext,
) => Promise<void>;

interface GenerationScope {
  scripted?: ScriptedGeneration;
  charge?: GenerationCharge;
}

const scope = new AsyncLocalStorage<GenerationScope>();

/** The scope around `call`: the enclosing one with `added` on top. */
function within(added: GenerationScope): GenerationScope {
  return { ...scope.getStore(), ...added };
}

/** Runs `call` with `scripted` answering the generations it starts. */
export function withScriptedGeneration<T>(scripted: ScriptedGeneration, call: () => T): T {
  return scope.run(within({ scripted }), call);
}

/** Runs `call` with `charge` counting the generations it starts. */
export function withGenerationCharge<T>(charge: GenerationCharge, call: () => T): T {
  return scope.run(within({ charge }), call);
}

/** Iterates `source` with `scripted` answering its generations (see iterateInScope). */
export function iterateWithScriptedGeneration<T>(
  scripted: ScriptedGeneration,
  source: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  return iterateInScope(within({ scripted }), source);
}

/** Iterates `source` with `charge` counting its generations (see iterateInScope). */
export function iterateWithGenerationCharge<T>(
  charge: GenerationCharge,
  source: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  return iterateInScope(within({ charge }), source);
}

/** The scripted answer of the generation being started, if a scenario gave one. */
export function scriptedGeneration(): ScriptedGeneration | undefined {
  return scope.getStore()?.scripted;
}

/** The charge of the generation being started, when the emulator counts quotas for it. */
export function generationCharge(): GenerationCharge | undefined {
  return scope.getStore()?.charge;
}

/**
 * Iterates `source` inside `value`'s scope at each step: an async generator's body runs at each
 * next(), outside the scope it was made in unless each call re-enters it.
 */
async function* iterateInScope<T>(
  value: GenerationScope,
  source: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  const iterator = scope.run(value, () => source()[Symbol.asyncIterator]());
  try {
    for (;;) {
      const step = await scope.run(value, () => iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await iterator.return?.();
  }
}
