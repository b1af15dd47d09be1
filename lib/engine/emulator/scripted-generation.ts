/**
 * A scenario's content answer for the generation an interaction runs: the Interactions API
 * turns a generation's chunks into its steps, events and usage (lib/engine/interactions), so a
 * scripted text, JSON or function-call answer is given there, in place of the engine's chunks,
 * and the interaction is framed, stored and resumed like any other. The scope is the call that
 * created the interaction (and a background run it started).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { iterateInScope } from "./iterate-in-scope";
import type { GenerationInput } from "@/lib/engine/generate";
import type { GenerateContentResponse } from "@/lib/gemini/types";

/** The chunks a scenario answers with, for the generation's input (its model, request, usage). */
export type ScriptedGeneration = (input: GenerationInput) => AsyncIterable<GenerateContentResponse>;

const scope = new AsyncLocalStorage<ScriptedGeneration>();

/** Runs `call` with `generate` answering the generations it starts. */
export function withScriptedGeneration<T>(generate: ScriptedGeneration, call: () => T): T {
  return scope.run(generate, call);
}

/** The scripted answer of the generation being started, if a scenario gave one. */
export function scriptedGeneration(): ScriptedGeneration | undefined {
  return scope.getStore();
}

/** Iterates `source` inside the scope, each step of it (a generator's body runs at each next()). */
export function iterateWithScriptedGeneration<T>(
  generate: ScriptedGeneration,
  source: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  return iterateInScope(scope, generate, source);
}
