/**
 * The generation core answered by a scenario: generateContent and streamGenerateContent with
 * the engine's checks of the request (its model's rules, its files and caches resolved for the
 * caller), then the scenario's chunks (scripted-answer.ts: exact text, function calls, JSON,
 * a safety block, usage counted by the real tokenizer) in place of the engine's. The native
 * generations answer through it, and so does the OpenAI-compatible chat completion, which the
 * engine translates to this core and back, so a scripted answer reaches an OpenAI client in
 * that API's shapes (tool calls, finish reasons, usage, chunks) exactly as an engine answer does.
 */
import type { Backend, OperationContext } from "@/lib/gemini/backend/contract";
import type { GenerateContentRequest, GenerateContentResponse } from "@/lib/gemini/types";
import { mergeChunks } from "@/lib/engine/generate/merge-chunks";
import { generationInput, type LocalBackend } from "@/lib/engine/local-backend";
import { defaultStreamError, scriptedError, TransportFault } from "./faults";
import type { ScriptedAnswer } from "./scenario-schema";
import { scriptedChunks, type ScriptedChunk } from "./scripted-answer";
import { sleep } from "./sleep";

export type GenerationCore = Pick<Backend, "generateContent" | "streamGenerateContent">;

/** The failure a stream told to fail after N chunks ends with. */
export function streamFailure(answer: ScriptedAnswer): Error {
  if (answer.reset) return new TransportFault({ kind: "reset" });
  return answer.error ? scriptedError(answer.error) : defaultStreamError();
}

/**
 * The core answering with `answer`: a stream waits its delayMs before the first chunk and each
 * chunk's wait; a whole answer waits nothing here (its caller waited the delay) and, having no
 * chunks to send before a scripted stream failure, fails at once.
 */
export function scriptedCore(
  local: LocalBackend,
  answer: ScriptedAnswer,
  scenarioId: string,
): GenerationCore {
  const chunksFor = async (
    model: string,
    request: GenerateContentRequest,
    context: OperationContext,
    stream: boolean,
  ) => {
    // A scripted answer reads and remembers no implicit-cache prefixes: it is not the engine's.
    const input = await generationInput(
      { storage: local.storage },
      model,
      request,
      context,
      stream,
    );
    return scriptedChunks(answer, input, scenarioId);
  };
  return {
    async generateContent(model, request, context) {
      const chunks = await chunksFor(model, request, context, false);
      if (answer.failAfterChunks !== undefined) throw streamFailure(answer);
      return mergeChunks(chunks.map((item) => item.chunk));
    },
    async *streamGenerateContent(model, request, context) {
      const chunks = await chunksFor(model, request, context, true);
      yield* paced(chunks, answer, context.signal);
    },
  };
}

/** Sends each chunk after its wait; a failAfterChunks answer then fails as told. */
export async function* paced(
  chunks: ScriptedChunk[],
  answer: ScriptedAnswer,
  signal: AbortSignal,
): AsyncGenerator<GenerateContentResponse> {
  const failAt = answer.failAfterChunks;
  for (const [index, item] of chunks.entries()) {
    if (failAt !== undefined && index >= failAt) break;
    await sleep(item.delayMs, signal);
    yield item.chunk;
  }
  if (failAt !== undefined) throw streamFailure(answer);
}
