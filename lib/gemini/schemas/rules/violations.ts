/**
 * Collects rule violations with their snake_case field paths and renders them as the
 * service does: one `* Request.field: description` line per violation, the same list as
 * google.rpc.BadRequest field violations.
 */
import { ApiError, type FieldViolation } from "../../api-error";

export class Violations {
  readonly list: FieldViolation[] = [];

  add(field: string, description: string): void {
    this.list.push({ field, description });
  }

  addAll(violations: readonly FieldViolation[]): void {
    this.list.push(...violations);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }
}

/** `base` + `.field`, or just `field` at the top. */
export function fieldPath(base: string, field: string): string {
  return base ? `${base}.${field}` : field;
}

/** The 400 for a list of violations of `requestName` (GenerateContentRequest, ...). */
export function violationError(
  requestName: string,
  violations: readonly FieldViolation[],
): ApiError {
  const message = violations
    .map((violation) => `* ${requestName}.${violation.field}: ${violation.description}`)
    .join("\n");
  return ApiError.invalidArgument(message, [...violations]);
}

/** A list for messages: `a, b and c`. */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** Length in Unicode code points (what "characters" means in the spec's limits). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
