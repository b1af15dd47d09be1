/**
 * An embedding's values as the local engine computes them: one Float64Array per vector (no
 * JavaScript array of thousands of numbers on the heap for the young generation's collections
 * to copy while a batch is answered). Written in JSON as the array of its numbers: the answer
 * writer (lib/runtime/json-stringify-in-slices) writes its digits straight from the typed
 * array, and JSON.stringify, anywhere else an answer is written whole, calls toJSON.
 */

/**
 * The mark of the class, from the global symbol registry: a server build holds several copies
 * of this module (one per bundle), so `instanceof` of one copy's class misses another's.
 */
const EMBEDDING_VALUES = Symbol.for("genstudio.EmbeddingValues");

export class EmbeddingValues extends Float64Array {
  /** The values as a plain array, as JSON.stringify writes them (`[0.1,-0.2]`). */
  toJSON(): number[] {
    return Array.from(this);
  }

  get [EMBEDDING_VALUES](): true {
    return true;
  }
}

/** Whether `value` is an EmbeddingValues, of whichever copy of this module made it. */
export function isEmbeddingValues(value: unknown): value is EmbeddingValues {
  return (
    value instanceof Float64Array &&
    (value as unknown as Record<symbol, unknown>)[EMBEDDING_VALUES] === true
  );
}
