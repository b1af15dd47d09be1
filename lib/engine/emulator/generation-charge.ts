/**
 * An interaction's generation counted against the caller's quotas. The Interactions API builds
 * its generate request inside the engine (the conversation it continues, then its own input),
 * so the emulator hands a charge in for the call that creates the interaction, and the engine
 * calls it with the request it built, before any answer: the same count, on the same model's
 * quotas, as generateContent's. The scope is that call (and a background run it started).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { iterateInScope } from "./iterate-in-scope";
import type { OperationContext } from "@/lib/gemini/backend/contract";
import type { GenerateContentRequest } from "@/lib/gemini/types";

export type GenerationCharge = (
  model: string,
  request: GenerateContentRequest,
  context: OperationContext,
) => Promise<void>;

const scope = new AsyncLocalStorage<GenerationCharge>();

/** Runs `call` with `charge` counting the generations it starts. */
export function withGenerationCharge<T>(charge: GenerationCharge, call: () => T): T {
  return scope.run(charge, call);
}

/** The charge of the generation being started, when the emulator counts quotas for it. */
export function generationCharge(): GenerationCharge | undefined {
  return scope.getStore();
}

/** Iterates `source` inside the scope, each step of it (a generator's body runs at each next()). */
export function iterateWithGenerationCharge<T>(
  charge: GenerationCharge,
  source: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  return iterateInScope(scope, charge, source);
}
