/**
 * An embedding's values as the local engine computes them: one Float64Array per vector (no
 * JavaScript array of thousands of numbers on the heap for the young generation's collections
 * to copy while a batch is answered). Written in JSON as the array of its numbers: the answer
 * writer (lib/runtime/json-stringify-in-slices) writes its digits straight from the typed
 * array, and JSON.stringify, anywhere else an answer is written whole, calls toJSON.
 *
 * The engine's answers hold their vectors as DeferredEmbeddingValues instead: each computed
 * when the answer writer reaches it, as integer billionths into one Int32Array the writer
 * reuses for every vector, its digits written from the integers at once. A batch's vectors are then never all in memory (megabytes of freshly
 * allocated memory a batch, written once and read back once), and each is read while it is
 * still in the processor's cache.
 */

/**
 * The marks of the classes, from the global symbol registry: a server build holds several
 * copies of this module (one per bundle), so `instanceof` of one copy's class misses another's.
 */
const EMBEDDING_VALUES = Symbol.for("genstudio.EmbeddingValues");
const DEFERRED_EMBEDDING_VALUES = Symbol.for("genstudio.DeferredEmbeddingValues");

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

/** Billionths in one. */
const BILLION = 1e9;

/**
 * An embedding's `length` values, computed when asked for, as integer billionths (each value
 * is its billionths / 1e9: the engine's values have 9 decimals, and the writer writes their
 * digits from the integers): `computeBillionths` writes them from the start of a target with
 * room for them, the same every time, start to end without a pause (so a computation may use
 * buffers of its own).
 */
export class DeferredEmbeddingValues {
  constructor(
    readonly length: number,
    private readonly computeBillionths: (target: Int32Array) => void,
  ) {}

  /** The values as billionths, written into `target` from its start (room for `length`). */
  writeBillionthsInto(target: Int32Array): void {
    this.computeBillionths(target);
  }

  /** The values in an array of their own. */
  values(): EmbeddingValues {
    const billionths = new Int32Array(this.length);
    this.computeBillionths(billionths);
    const values = new EmbeddingValues(this.length);
    for (let index = 0; index < this.length; index++) values[index] = billionths[index]! / BILLION;
    return values;
  }

  /** The values as a plain array, as JSON.stringify writes them. */
  toJSON(): number[] {
    return Array.from(this.values());
  }

  get [DEFERRED_EMBEDDING_VALUES](): true {
    return true;
  }
}

/** Whether `value` is a DeferredEmbeddingValues, of whichever copy of this module made it. */
export function isDeferredEmbeddingValues(value: unknown): value is DeferredEmbeddingValues {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[DEFERRED_EMBEDDING_VALUES] === true
  );
}

/** An embedding's values as numbers, computing them if they are deferred. */
export function embeddingNumbers(
  values: readonly number[] | EmbeddingValues | DeferredEmbeddingValues,
): ArrayLike<number> {
  return isDeferredEmbeddingValues(values) ? values.values() : values;
}
