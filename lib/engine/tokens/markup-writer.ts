/**
 * The markup the service writes function declarations, calls, responses and schemas in (3.x, and
 * 2.5's response schemas), for counting: texts run together, each marker one token. Shared by the
 * notations of function-text.ts and python-function-text.ts.
 */
import { PieceWriter } from "@/lib/runtime/piece-writer";
import { ownKeys } from "@/lib/gemini/own-keys";
import type { Steps } from "@/lib/gemini/steps";

/** What an item adds to the prompt: texts the vocabulary counts, and tokens it adds as they are. */
export interface PromptText {
  texts: string[];
  /** Marker tokens (markup) or non-string values (fields), one token each. */
  fixed: number;
}

/** Sorted keys merged between two yields. */
const MERGES_PER_STEP = 1_024;

/**
 * Writes the markup: texts run together, each control token (`<escape>`,
 * `<start_function_call>`, ...: one token of the vocabulary whatever its spelling) ends the
 * running text and counts one. Markers are never spelled out, so no text a caller sends can
 * pass for one; each value is visited once (linear in the request's size), with a yield
 * after each so that a call of megabytes is written in slices.
 */
export class MarkupWriter {
  private readonly texts: string[] = [];
  private fixed = 0;
  private readonly current = new PieceWriter();

  text(text: string): void {
    this.current.write(text);
  }

  marker(): void {
    this.fixed += 1;
    if (!this.current.empty) this.texts.push(this.current.take());
  }

  escaped(text: string): void {
    this.marker();
    this.current.write(text);
    this.marker();
  }

  /** `{key:value,...}` with the keys in order; `write` writes each value, `keep` picks the keys. */
  *braced(
    record: Record<string, unknown>,
    write?: (value: unknown, key: string) => Steps,
    keep?: (key: string) => boolean,
  ): Steps {
    let keys = ownKeys(record);
    if (keep) keys = keys.filter(keep);
    if (keys.length > 1) keys = yield* sortedSteps([...keys]);
    this.text("{");
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      this.text(index ? `,${key}:` : `${key}:`);
      if (write) yield* write(record[key], key);
      else yield* this.value(record[key]);
    }
    this.text("}");
  }

  /** `[item,...]`, each item written by `write` (a JSON value unless given). */
  *bracketed<T>(items: readonly T[], write?: (item: T) => Steps): Steps {
    this.text("[");
    for (let index = 0; index < items.length; index++) {
      if (index) this.text(",");
      if (write) yield* write(items[index]!);
      else yield* this.value(items[index]);
    }
    this.text("]");
  }

  /** A JSON value: strings escaped, other scalars as written, arrays and objects nested. */
  *value(value: unknown): Steps {
    if (typeof value === "string") this.escaped(value);
    else if (value === null || value === undefined) this.text("null");
    else if (Array.isArray(value)) yield* this.bracketed(value);
    else if (typeof value === "object") yield* this.braced(value as Record<string, unknown>);
    else this.text(String(value));
    yield;
  }

  /**
   * A schema: type names escaped, property and nested schemas written as schemas. With
   * `schemaKeywordsOnly`, JSON Schema's own keywords (`$schema`, `additionalProperties`) are
   * left out, as the service leaves them out of the schemas it keeps.
   */
  *schema(node: unknown, schemaKeywordsOnly = false): Steps {
    if (!isRecord(node)) return yield* this.value(node);
    yield* this.braced(
      node,
      (child, keyword) => this.schemaMember(child, keyword, schemaKeywordsOnly),
      schemaKeywordsOnly ? (keyword) => keptMember(node, keyword) : undefined,
    );
  }

  private *schemaMember(child: unknown, keyword: string, schemaKeywordsOnly: boolean): Steps {
    if (keyword === "properties" && isRecord(child))
      yield* this.braced(child, (property) => this.schema(property, schemaKeywordsOnly));
    else if (keyword === "type") {
      const names = typeNames(child);
      if (names.length === 1) this.escaped(names[0]!);
      else yield* this.bracketed(names, (name) => this.escapedSteps(name));
    } else if (keyword === "items" || keyword === "not")
      yield* this.schema(child, schemaKeywordsOnly);
    else if (Array.isArray(child) && child.some(isRecord))
      yield* this.bracketed(child, (branch) => this.schema(branch, schemaKeywordsOnly));
    else yield* this.value(child);
  }

  private *escapedSteps(text: string): Steps {
    this.escaped(text);
  }

  result(): PromptText {
    return {
      texts: this.current.empty ? this.texts : [...this.texts, this.current.take()],
      fixed: this.fixed,
    };
  }
}

/** `keys` sorted as Array.prototype.sort sorts strings, merging a few runs per step. */
export function* sortedSteps(keys: string[]): Steps<string[]> {
  const RUN = 256;
  if (keys.length <= RUN) return keys.sort();
  let runs: string[][] = [];
  for (let from = 0; from < keys.length; from += RUN) {
    runs.push(keys.slice(from, from + RUN).sort());
    yield;
  }
  let merged = 0;
  while (runs.length > 1) {
    const next: string[][] = [];
    for (let index = 0; index < runs.length; index += 2) {
      const left = runs[index]!;
      const right = runs[index + 1];
      if (!right) {
        next.push(left);
        continue;
      }
      const out: string[] = [];
      let l = 0;
      let r = 0;
      while (l < left.length && r < right.length) {
        out.push(left[l]! <= right[r]! ? left[l++]! : right[r++]!);
        if (++merged % MERGES_PER_STEP === 0) yield;
      }
      while (l < left.length) out.push(left[l++]!);
      while (r < right.length) out.push(right[r++]!);
      next.push(out);
    }
    runs = next;
  }
  return runs[0]!;
}

/** The service writes types by their enum names (STRING, OBJECT), whatever case was sent. */
export function typeNames(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type])
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.toUpperCase());
}

/** A JSON Schema keyword the service's own schemas keep (it drops `$schema`, `additionalProperties`). */
function isSchemaKeyword(keyword: string): boolean {
  return !keyword.startsWith("$") && keyword !== "additionalProperties";
}

function keptMember(node: Record<string, unknown>, keyword: string): boolean {
  if (!isSchemaKeyword(keyword)) return false;
  const child = node[keyword];
  if (keyword === "properties" && isRecord(child) && Object.keys(child).length === 0) return false;
  return true;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
