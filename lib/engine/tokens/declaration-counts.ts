/**
 * What each function declaration adds to a prompt, remembered: agents send the same tool list
 * on every turn of a conversation, so a declaration is written in its family's notation and
 * tokenized once, and later requests declaring it add its remembered count. Keyed by the
 * vocabulary, the notation and the declaration's JSON (its own keys in order, so two spellings
 * of one schema are two entries); a declaration whose JSON is longer than MAX_KEY_CHARACTERS
 * is counted afresh each time (its writing dwarfs the lookup anyway). Holds at most
 * MAX_ENTRIES, the least recently used dropped first. Counts only: nothing a caller could
 * read back, so sharing it across callers tells none of them anything.
 */
import type { FunctionTextFormat } from "@/lib/gemini/prompt-token-rules";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import { jsonSizeWithin } from "@/lib/runtime/json-size-within";

const MAX_ENTRIES = 4_096;
const MAX_KEY_CHARACTERS = 32_768;

const counts = new Map<string, number>();

/**
 * The key a declaration's count is remembered under, or null for one too large to remember.
 * The size is estimated from the declaration's strings first, so a declaration of megabytes
 * is never written out on the request thread just to be refused.
 */
export function declarationKey(
  tokenizer: string,
  format: FunctionTextFormat,
  declaration: FunctionDeclaration,
): string | null {
  if (!jsonSizeWithin(declaration, MAX_KEY_CHARACTERS)) return null;
  const json = JSON.stringify(declaration);
  if (json.length > MAX_KEY_CHARACTERS) return null;
  return `${tokenizer}\u0000${format}\u0000${json}`;
}

/** The remembered count of a declaration, marked as recently used. */
export function rememberedCount(key: string): number | undefined {
  const count = counts.get(key);
  if (count === undefined) return undefined;
  counts.delete(key);
  counts.set(key, count);
  return count;
}

export function rememberCount(key: string, count: number): void {
  counts.delete(key);
  counts.set(key, count);
  if (counts.size > MAX_ENTRIES) counts.delete(counts.keys().next().value!);
}
