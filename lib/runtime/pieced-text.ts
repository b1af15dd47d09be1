/**
 * A long string member kept as the pieces it was made in: a unary answer's audio is tens of
 * megabytes of base64 made half a second at a time, and joining the pieces is one copy of the
 * whole on the request's thread (hundreds of milliseconds where fresh memory is slow to map),
 * and so is every later copy of the joined text (escaping it, encoding it). The member reads
 * as the joined string to anything that reads it (joined then, once); jsonTextPieces writes it
 * from its pieces, so an answer sent as JSON is never joined.
 */

// One registry per process: a server build holds two copies of this module (the
// instrumentation bundle that makes the answer, and the route bundle that writes it).
const registry = globalThis as typeof globalThis & {
  __genstudioPiecedText?: WeakMap<object, Map<string, readonly string[]>>;
};
const piecesOf = (registry.__genstudioPiecedText ??= new WeakMap());

/** Sets `holder[key]` to the text of `pieces` one after the other, joined only when read. */
export function setPiecedText(holder: object, key: string, pieces: readonly string[]): void {
  let joined: string | undefined;
  let members = piecesOf.get(holder);
  if (!members) piecesOf.set(holder, (members = new Map()));
  members.set(key, pieces);
  Object.defineProperty(holder, key, {
    configurable: true,
    enumerable: true,
    get: () => (joined ??= pieces.join("")),
    // A write replaces the pieces with an ordinary member.
    set: (value: unknown) => {
      members.delete(key);
      Object.defineProperty(holder, key, {
        value,
        configurable: true,
        enumerable: true,
        writable: true,
      });
    },
  });
}

/** The pieces `holder[key]` is made of, when it was set by setPiecedText (without joining them). */
export function piecedText(holder: object, key: string): readonly string[] | undefined {
  return piecesOf.get(holder)?.get(key);
}
