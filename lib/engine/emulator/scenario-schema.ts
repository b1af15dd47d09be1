/**
 * What a scenario is, checked once when it is registered: `{ match, respond, times? }`, with
 * every rule that can be checked without a request (known operation names, patterns that
 * compile to a linear-time matcher, one kind of answer per respond, error details in the
 * service's shapes). A problem is an ApiError 400 naming the field, and nothing is registered.
 */
import { z } from "zod";
import { ApiError, type ErrorDetail, type FieldViolation } from "@/lib/gemini/api-error";
import { parseDurationMs } from "@/lib/gemini/retry-info";
import { HARM_PROBABILITIES, type FinishReason, type HarmCategory } from "@/lib/gemini/types";
import { LinearPattern, PatternError } from "./linear-pattern";
import { isOperationName } from "./operations";

/** Longest delay a scenario may ask for, so a typo cannot hold a connection for hours. */
export const MAX_DELAY_MS = 600_000;

const HARM_CATEGORIES = [
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_CIVIC_INTEGRITY",
  "HARM_CATEGORY_DEROGATORY",
  "HARM_CATEGORY_TOXICITY",
  "HARM_CATEGORY_VIOLENCE",
  "HARM_CATEGORY_SEXUAL",
  "HARM_CATEGORY_MEDICAL",
  "HARM_CATEGORY_DANGEROUS",
] as const satisfies readonly HarmCategory[];

const FINISH_REASONS = [
  "STOP",
  "MAX_TOKENS",
  "SAFETY",
  "RECITATION",
  "LANGUAGE",
  "OTHER",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "MALFORMED_FUNCTION_CALL",
] as const satisfies readonly FinishReason[];

const BLOCK_REASONS = [
  "SAFETY",
  "OTHER",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "IMAGE_SAFETY",
] as const;

/** Request headers a scenario may not match on: credentials are never compared or shown. */
const SECRET_HEADERS = new Set([
  "x-goog-api-key",
  "authorization",
  "cookie",
  "proxy-authorization",
]);

const delayMs = z.number().int().min(0).max(MAX_DELAY_MS);

const patternSchema = z
  .string()
  .min(1)
  .transform((source, context) => {
    try {
      return LinearPattern.compile(source);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      context.addIssue({ code: "custom", message: error.message });
      return z.NEVER;
    }
  });

const operationName = z
  .string()
  .refine(isOperationName, { message: "is not an operation or group this studio knows" });

export const matchSchema = z.strictObject({
  /** An operation (`generateContent`, `files.get`, ...) or group (`stream`, `files`, `caches`, ...), or a list of them. */
  operation: z.union([operationName, z.array(operationName).min(1)]).optional(),
  /** `gemini-2.5-flash` or `models/gemini-2.5-flash`: the model the request names. */
  model: z.string().min(1).optional(),
  /** Text the request's text contains (exactly, case included). */
  textContains: z.string().min(1).optional(),
  /** A pattern the request's text matches (linear time; `(?i)` ignores case). */
  textMatches: patternSchema.optional(),
  /** Which text: the last user turn (default) or every text of the request. */
  textIn: z.enum(["lastUserTurn", "anywhere"]).optional(),
  /** Whether the request declares tools. */
  hasTools: z.boolean().optional(),
  /** A function the request declares. */
  functionName: z.string().min(1).optional(),
  /** Request headers that must have exactly these values (names in any case). */
  headers: z
    .record(z.string().min(1), z.string())
    .superRefine((headers, context) => {
      for (const name of Object.keys(headers))
        if (SECRET_HEADERS.has(name.toLowerCase()))
          context.addIssue({
            code: "custom",
            path: [name],
            message: "is a credential header, which scenarios never match on",
          });
    })
    .optional(),
});

const ratingSchema = z.strictObject({
  category: z.enum(HARM_CATEGORIES),
  probability: z.enum(HARM_PROBABILITIES),
  blocked: z.boolean().optional(),
});

const durationString = z
  .string()
  .refine((value) => parseDurationMs(value) !== null, { message: 'is not a duration like "3s"' });

const detailSchema = z.union([
  z.strictObject({
    "@type": z.literal("type.googleapis.com/google.rpc.RetryInfo"),
    retryDelay: durationString,
  }),
  z.strictObject({
    "@type": z.literal("type.googleapis.com/google.rpc.QuotaFailure"),
    violations: z
      .array(
        z.strictObject({
          quotaMetric: z.string().optional(),
          quotaId: z.string().optional(),
          quotaDimensions: z.record(z.string(), z.string()).optional(),
          quotaValue: z.string().optional(),
          subject: z.string().optional(),
          description: z.string().optional(),
        }),
      )
      .min(1),
  }),
  z.strictObject({
    "@type": z.literal("type.googleapis.com/google.rpc.ErrorInfo"),
    reason: z.string().min(1),
    domain: z.string().min(1),
    metadata: z.record(z.string(), z.string()).optional(),
  }),
  z.strictObject({
    "@type": z.literal("type.googleapis.com/google.rpc.Help"),
    links: z.array(z.strictObject({ description: z.string(), url: z.string() })),
  }),
  z.strictObject({
    "@type": z.literal("type.googleapis.com/google.rpc.BadRequest"),
    fieldViolations: z.array(z.strictObject({ field: z.string(), description: z.string() })),
  }),
  z.strictObject({
    "@type": z.literal("type.googleapis.com/google.rpc.LocalizedMessage"),
    locale: z.string(),
    message: z.string(),
  }),
]);

const errorSchema = z.strictObject({
  /** The HTTP status (400 to 599). */
  code: z.number().int().min(400).max(599),
  /** The RPC status word; defaults to the usual one for the code. */
  status: z
    .string()
    .regex(/^[A-Z_]+$/, "is not an RPC status like RESOURCE_EXHAUSTED")
    .optional(),
  message: z.string().optional(),
  details: z.array(detailSchema).optional(),
});

const chunkSchema = z.union([
  z.string(),
  z.strictObject({ text: z.string(), delayMs: delayMs.optional() }),
]);

/** Most values one scripted vector holds (the largest embedding size of the catalog's models). */
export const MAX_VECTOR_VALUES = 3072;
/** Most vectors one answer holds (an embedding batch's most inputs). */
const MAX_SCRIPTED_VECTORS = 100;

const vectorSchema = z.array(z.number()).min(1).max(MAX_VECTOR_VALUES);

/** One answer. Its kind is the one field of KINDS it sets; `delayMs` goes with any kind, or alone. */
export const answerSchema = z.strictObject({
  text: z.string().optional(),
  chunks: z.array(chunkSchema).min(1).optional(),
  functionCalls: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        args: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .optional(),
  json: z.unknown().optional(),
  safetyBlock: z
    .strictObject({
      target: z.enum(["prompt", "candidate"]),
      reason: z.enum(BLOCK_REASONS).optional(),
      ratings: z.array(ratingSchema).optional(),
    })
    .optional(),
  /** The finishReason of a text answer (default STOP). */
  finishReason: z.enum(FINISH_REASONS).optional(),
  /** The vector every input of an embedding request gets (embedContent, batchEmbedContents, openai.embeddings). */
  embedding: vectorSchema.optional(),
  /** One vector per input of an embedding request, in order. */
  embeddings: z.array(vectorSchema).min(1).max(MAX_SCRIPTED_VECTORS).optional(),
  /** A whole JSON answer, as is, for an operation of any kind. */
  body: z.record(z.string(), z.unknown()).optional(),
  error: errorSchema.optional(),
  /** A bare HTTP status: no JSON error body (a proxy's answer), `bodyText` as the body. */
  httpStatus: z.number().int().min(400).max(599).optional(),
  bodyText: z.string().max(65_536).optional(),
  /** The connection is closed without an answer (or, after failAfterChunks, mid-stream). */
  reset: z.literal(true).optional(),
  /** A stream sends this many chunks, then fails with `error` (or resets). */
  failAfterChunks: z.number().int().min(0).optional(),
  /** Milliseconds before the answer starts. */
  delayMs: delayMs.optional(),
  /** Milliseconds between two chunks of a stream (a chunk's own delayMs wins). */
  chunkDelayMs: delayMs.optional(),
});

export type ScriptedAnswer = z.infer<typeof answerSchema>;
const sequenceSchema = z.array(answerSchema).min(1).max(1_000);
export type ScenarioMatchInput = z.infer<typeof matchSchema>;

const KINDS = [
  "text",
  "chunks",
  "functionCalls",
  "json",
  "safetyBlock",
  "embedding",
  "embeddings",
  "body",
  "error",
  "httpStatus",
  "reset",
] as const;
export type AnswerKind = (typeof KINDS)[number] | "delay";

/** Which kind an answer is, after the one-kind rule held. */
export function answerKind(answer: ScriptedAnswer): AnswerKind {
  const kinds = KINDS.filter((kind) => kind in answer && answer[kind] !== undefined);
  if (answer.failAfterChunks !== undefined) return answer.chunks ? "chunks" : "text";
  return kinds[0] ?? "delay";
}

/** The one-kind rule and the fields that only go with some kinds, as field violations. */
function answerProblems(answer: ScriptedAnswer): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const kinds = KINDS.filter((kind) => kind in answer && answer[kind] !== undefined);
  const failing = answer.failAfterChunks !== undefined;
  if (failing) {
    const content: string[] = kinds.filter((kind) => kind === "text" || kind === "chunks");
    const ending: string[] = kinds.filter((kind) => kind === "error" || kind === "reset");
    if (content.length !== 1)
      problems.push({ path: "failAfterChunks", message: "needs exactly one of text or chunks" });
    if (ending.length > 1)
      problems.push({ path: "failAfterChunks", message: "takes error or reset, not both" });
    const others = kinds.filter((kind) => !content.includes(kind) && !ending.includes(kind));
    for (const other of others)
      problems.push({ path: other, message: "does not go with failAfterChunks" });
  } else if (kinds.length > 1) {
    problems.push({
      path: kinds[1]!,
      message: `does not go with ${kinds[0]}: an answer is one of ${KINDS.join(", ")}`,
    });
  }
  const kind = answerKind(answer);
  if (answer.finishReason !== undefined && kind !== "text" && kind !== "chunks")
    problems.push({ path: "finishReason", message: "goes only with text or chunks" });
  if (answer.bodyText !== undefined && kind !== "httpStatus")
    problems.push({ path: "bodyText", message: "goes only with httpStatus" });
  if (answer.chunkDelayMs !== undefined && kind !== "text" && kind !== "chunks")
    problems.push({ path: "chunkDelayMs", message: "goes only with text or chunks" });
  return problems;
}

export const scenarioSchema = z
  .strictObject({
    /** A name of the caller's choosing, shown in lists and the request log. */
    name: z.string().max(200).optional(),
    match: matchSchema.optional(),
    /** One answer, or a sequence: the first call gets the first, the second the second, ... */
    respond: z.unknown().transform((value, context) => {
      // Read by its shape (a union would report only "invalid input", not the field at fault).
      const result = Array.isArray(value)
        ? sequenceSchema.safeParse(value)
        : answerSchema.safeParse(value);
      if (result.success) return result.data;
      for (const issue of result.error.issues)
        context.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return z.NEVER;
    }),
    /** How many requests it answers (one answer only); then the next scenario or the engine does. */
    times: z.number().int().min(1).optional(),
  })
  .superRefine((scenario, context) => {
    const answers = Array.isArray(scenario.respond) ? scenario.respond : [scenario.respond];
    answers.forEach((answer, index) => {
      for (const problem of answerProblems(answer)) {
        context.addIssue({
          code: "custom",
          path: Array.isArray(scenario.respond)
            ? ["respond", index, problem.path]
            : ["respond", problem.path],
          message: problem.message,
        });
      }
    });
    if (Array.isArray(scenario.respond) && scenario.times !== undefined)
      context.addIssue({
        code: "custom",
        path: ["times"],
        message: "does not go with a sequence: a sequence answers once per answer",
      });
  });

export type ScenarioInput = z.infer<typeof scenarioSchema>;

/** A field path as the messages spell it: `respond[1].error.code`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += (text ? "." : "") + String(segment);
  }
  return text;
}

/** A zod failure as the service's 400: every problem a line naming its field, and a BadRequest. */
export function invalidScenario(error: z.ZodError, prefix: readonly PropertyKey[] = []): ApiError {
  const violations: FieldViolation[] = error.issues.map((issue) => ({
    field: fieldPath([...prefix, ...issue.path]),
    description: issue.message,
  }));
  return invalidFields(violations);
}

/** Field violations as one 400 whose message lists them (`* field: problem`). */
export function invalidFields(
  violations: FieldViolation[],
  heading = "The scenario is not valid",
): ApiError {
  const lines = violations.map(
    (violation) => `* ${violation.field || "(body)"}: ${violation.description}`,
  );
  return ApiError.invalidArgument(`${heading}:\n${lines.join("\n")}`, violations);
}

/** The error details of an answer, in the ApiError's type (the schema checked their shapes). */
export function scriptedDetails(answer: ScriptedAnswer): ErrorDetail[] | undefined {
  return answer.error?.details as ErrorDetail[] | undefined;
}
