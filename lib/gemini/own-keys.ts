/**
 * Object.keys, from a list recorded when the object was built, where one was: the sliced JSON
 * reader (lib/runtime/json-parse-in-slices.ts) records the keys of the large objects it reads, since
 * Object.keys of an object of 100,000 keys holds its thread for tens of milliseconds in one
 * call. A list is recorded only when it is exactly what Object.keys answers (no
 * array-index keys, which Object.keys puts first, and no repeated key); the objects are a
 * request's canonical form, which nothing changes once it is read.
 */
// One registry per process: a server build can hold two copies of this module (the
// instrumentation bundle that creates the backend, and the route bundles that read bodies).
const registry = globalThis as typeof globalThis & {
  __genstudioOwnKeys?: WeakMap<object, readonly string[]>;
};
const recorded = (registry.__genstudioOwnKeys ??= new WeakMap());

/** Records `keys` as the own enumerable keys of `object`, in Object.keys order. */
export function recordOwnKeys(object: object, keys: readonly string[]): void {
  recorded.set(object, keys);
}

/** Object.keys(object), without the call when the list was recorded. */
export function ownKeys(object: object): readonly string[] {
  return recorded.get(object) ?? Object.keys(object);
}

/** Whether Object.keys would put `key` first, out of insertion order (an array index). */
export function isArrayIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  if (first < 0x30 || first > 0x39) return false;
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}
