/**
 * A scenario's answer to a generation, as the service would shape it for the request's model:
 * the chunks of exact text (or function calls, JSON, a safety block) with usage counted by the
 * real tokenizer over the request as the engine counts any prompt, the family's optional
 * fields (index, finishMessage, functionCall ids, thoughtSignatures, serviceTier), its
 * modelVersion and a fresh responseId. Delays and failures are the stream's (scripted-stream.ts).
 */
import { ApiError } from "@/lib/gemini/api-error";
import type {
  Candidate,
  FunctionCall,
  GenerateContentRequest,
  GenerateContentResponse,
  Part,
  SafetyRating,
  Schema,
} from "@/lib/gemini/types";
import {
  newFunctionCallId,
  shapeCandidate,
  signaturePlacement,
  type AnswerShape,
} from "@/lib/engine/generate/answer-shape";
import type { GenerationInput } from "@/lib/engine/generate/generation-input";
import { newResponseId } from "@/lib/engine/generate/response-id";
import { usageReport } from "@/lib/engine/generate/usage";
import { countRequestTokens, countTexts, makeThoughtSignature } from "@/lib/engine/tokens";
import type { ScriptedAnswer } from "./scenario-schema";
import { misfit, schemaTree } from "./value-fits-schema";

/** One chunk of a scripted stream and the wait before it. */
export interface ScriptedChunk {
  chunk: GenerateContentResponse;
  delayMs: number;
}

/** The chunks of a content answer (text, chunks, functionCalls, json, safetyBlock), in order. */
export async function scriptedChunks(
  answer: ScriptedAnswer,
  input: GenerationInput,
  scenarioId: string,
): Promise<ScriptedChunk[]> {
  const { request, traits } = input;
  const shape: AnswerShape = { traits: input.answer, stream: input.stream };
  const config = request.generationConfig ?? {};
  const counted = await countRequestTokens(
    traits,
    {
      contents: request.contents,
      systemInstruction: request.systemInstruction,
      tools: request.tools,
      toolConfig: request.toolConfig,
      mediaResolution: config.mediaResolution,
      responseSchema: config.responseSchema,
    },
    { resolveFile: input.resolveFile, signal: input.signal },
  );
  const usage = usageReport(input, counted, shape, request);
  const responseId = newResponseId();
  const envelope = (body: GenerateContentResponse): GenerateContentResponse => ({
    ...body,
    modelVersion: input.modelVersion,
    responseId,
  });
  const none = { audio: 0, picture: 0 };

  if (answer.safetyBlock) {
    const ratings = (answer.safetyBlock.ratings ?? []) as SafetyRating[];
    if (answer.safetyBlock.target === "prompt") {
      return [
        {
          delayMs: answer.delayMs ?? 0,
          chunk: envelope({
            promptFeedback: {
              blockReason: answer.safetyBlock.reason ?? "SAFETY",
              ...(ratings.length ? { safetyRatings: ratings } : {}),
            },
            usageMetadata: usage(0, 0, none),
          }),
        },
      ];
    }
    const candidate: Candidate = { finishReason: "SAFETY" };
    if (ratings.length) candidate.safetyRatings = ratings;
    return [
      {
        delayMs: answer.delayMs ?? 0,
        chunk: envelope({
          candidates: [shapeCandidate(candidate, 0, shape)],
          usageMetadata: usage(0, 0, none),
        }),
      },
    ];
  }

  const pieces = answerPieces(answer, request, scenarioId);
  const counts = await countTexts(
    traits.tokenizer,
    pieces.map((piece) => piece.countedText),
    input.signal,
  );
  const placement = signaturePlacement(shape, request, traits.thinking !== undefined);
  let running = 0;
  return pieces.map((piece, index) => {
    running += counts[index] ?? 0;
    const last = index === pieces.length - 1;
    const parts = piece.parts.map((part) => ({ ...part }));
    if (index === 0 && placement !== "none" && parts[0])
      parts[0].thoughtSignature = makeThoughtSignature(0);
    if (input.answer.functionCallIds)
      for (const part of parts) if (part.functionCall) part.functionCall.id ??= newFunctionCallId();
    const candidate: Candidate = { content: { role: "model", parts } };
    if (last) candidate.finishReason = answer.finishReason ?? "STOP";
    return {
      delayMs:
        index === 0
          ? (answer.delayMs ?? 0) + (piece.delayMs ?? 0)
          : (piece.delayMs ?? answer.chunkDelayMs ?? 0),
      chunk: envelope({
        candidates: [shapeCandidate(candidate, 0, shape)],
        usageMetadata: usage(running, 0, none),
      }),
    };
  });
}

interface AnswerPiece {
  parts: Part[];
  /** What the answer tokens are counted from. */
  countedText: string;
  delayMs?: number;
}

/** The parts of each chunk, with the checks that need the request (schema, declared functions). */
function answerPieces(
  answer: ScriptedAnswer,
  request: GenerateContentRequest,
  scenarioId: string,
): AnswerPiece[] {
  if (answer.chunks) {
    return answer.chunks.map((chunk) =>
      typeof chunk === "string"
        ? { parts: [{ text: chunk }], countedText: chunk }
        : {
            parts: [{ text: chunk.text }],
            countedText: chunk.text,
            ...(chunk.delayMs !== undefined ? { delayMs: chunk.delayMs } : {}),
          },
    );
  }
  if (answer.functionCalls) {
    const calls: FunctionCall[] = answer.functionCalls.map((call) => ({
      name: call.name,
      args: (call.args ?? {}) as Record<string, unknown>,
    }));
    for (const call of calls) checkFunctionCall(call, request, scenarioId);
    return [
      {
        parts: calls.map((call) => ({ functionCall: call })),
        countedText: calls.map((call) => `${call.name}${JSON.stringify(call.args)}`).join("\n"),
      },
    ];
  }
  if (answer.json !== undefined) {
    checkJson(answer.json, request, scenarioId);
    const text = JSON.stringify(answer.json);
    return [{ parts: [{ text }], countedText: text }];
  }
  const text = answer.text ?? "";
  return [{ parts: [{ text }], countedText: text }];
}

/** A scenario whose answer does not fit the request it matched: a 400 the test sees, naming it. */
export function scenarioMisfit(scenarioId: string, message: string): ApiError {
  return new ApiError(400, "FAILED_PRECONDITION", `Scenario ${scenarioId} ${message}`);
}

function checkJson(value: unknown, request: GenerateContentRequest, scenarioId: string): void {
  const config = request.generationConfig ?? {};
  const tree = schemaTree({
    ...(config.responseJsonSchema !== undefined ? { jsonSchema: config.responseJsonSchema } : {}),
    ...(config.responseSchema !== undefined ? { openApi: config.responseSchema as Schema } : {}),
  });
  if (!tree) return;
  const problem = misfit(value, tree);
  if (problem) {
    const field = config.responseJsonSchema !== undefined ? "responseJsonSchema" : "responseSchema";
    throw scenarioMisfit(
      scenarioId,
      `answers JSON that does not fit the request's generationConfig.${field}: ${problem}`,
    );
  }
}

function checkFunctionCall(
  call: FunctionCall,
  request: GenerateContentRequest,
  scenarioId: string,
): void {
  const declarations = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  if (declarations.length === 0) return;
  const declaration = declarations.find((item) => item.name === call.name);
  if (!declaration) {
    throw scenarioMisfit(
      scenarioId,
      `calls the function "${call.name}", which the request does not declare (it declares ${declarations.map((item) => item.name).join(", ")})`,
    );
  }
  const tree = schemaTree({
    ...(declaration.parametersJsonSchema !== undefined
      ? { jsonSchema: declaration.parametersJsonSchema }
      : {}),
    ...(declaration.parameters !== undefined ? { openApi: declaration.parameters } : {}),
  });
  const problem = tree ? misfit(call.args ?? {}, tree) : null;
  if (problem)
    throw scenarioMisfit(
      scenarioId,
      `calls "${call.name}" with arguments its declaration does not allow: ${problem}`,
    );
}
