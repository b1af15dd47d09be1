/**
 * Which operations a scenario's answers can answer, checked once when it is registered:
 * content (text, chunks, function calls, JSON, safety blocks) answers generations, an
 * interaction's create and an OpenAI-compatible chat completion; vectors answer embeddings;
 * every other answer (an error, a status, a reset, a delay, a body) any operation.
 */
import { invalidFields, answerKind, type ScriptedAnswer } from "./scenario-schema";
import { CONTENT_OPERATIONS, EMBEDDING_OPERATIONS, OPERATIONS } from "./operations";

/**
 * Answers that fit some operations only, and those operations: content (text, chunks,
 * function calls, JSON, safety blocks) answers generations; vectors answer embeddings.
 */
const ANSWER_FITS: ReadonlyArray<{
  kinds: ReadonlySet<string>;
  operations: readonly string[];
  what: string;
}> = [
  {
    kinds: new Set(["text", "chunks", "functionCalls", "json", "safetyBlock"]),
    operations: CONTENT_OPERATIONS,
    what: "content answers",
  },
  {
    kinds: new Set(["embedding", "embeddings"]),
    operations: EMBEDDING_OPERATIONS,
    what: "embeddings",
  },
];

/**
 * The operations a scenario's answers fit: a group (`interactions`, `embeddings`) or no
 * operation at all narrows to those its answers can answer; an operation named on its own
 * that cannot take one of them, or answers that fit no operation together, are refused.
 */
export function narrowToAnswers(
  answers: readonly ScriptedAnswer[],
  named: readonly string[] | null,
  operations: readonly string[] | null,
): readonly string[] | null {
  let narrowed = operations;
  for (const fit of ANSWER_FITS) {
    const answer = answers.find((item) => fit.kinds.has(answerKind(item)));
    if (!answer) continue;
    const able = (narrowed ?? fit.operations).filter((operation) =>
      fit.operations.includes(operation),
    );
    const other = named?.find(
      (name) => (OPERATIONS as readonly string[]).includes(name) && !fit.operations.includes(name),
    );
    if (other !== undefined || able.length === 0) {
      throw invalidFields([
        {
          field: "match.operation",
          description: `${
            other !== undefined || named
              ? `names ${other ?? named!.join(", ")}, which ${answerKind(answer)} cannot answer`
              : `${answerKind(answer)} cannot answer what the other answers do`
          }: ${fit.what} go to ${fit.operations.join(", ")}`,
        },
      ]);
    }
    narrowed = able;
  }
  return narrowed;
}
