/**
 * The long strings of a body read in the body reader worker, sent back beside its JSON pieces
 * (json-pieces.ts) rather than in them. In them, the request's thread would decode the long
 * string's piece, JSON text of megabytes, and then make another copy, the string itself, in
 * one go: for a prompt of 12 MiB or a document of 10 MB inline, two copies of megabytes while
 * every other caller waits. Beside them, the string arrives once, as itself.
 *
 * Inline data (`inlineData.data`) goes further: its base64 is decoded here, in the worker, and
 * its bytes are handed over rather than copied, so the request's thread never makes the string
 * at all (a fresh string of 13 MB is 60 ms or more of one copy into memory that is slow to
 * map). The member reads as its base64 (pieced text); the engine takes its bytes as they are.
 */
import { setPiecedText } from "@/lib/runtime/pieced-text";

/** Strings this long or longer are set aside. */
export const LONG_STRING_CHARACTERS = 1_048_576;

/**
 * A string set aside: where it was (keys and indexes from the top) and its text, or for
 * inline data, the bytes its base64 stands for.
 */
export type SetAsideString =
  { path: (string | number)[]; text: string } | { path: (string | number)[]; bytes: Uint8Array };

/**
 * Takes every long string out of plain JSON data `value`, leaving "" in its place (so the
 * data's JSON pieces stay short), and returns them with their places.
 */
export function setAsideLongStrings(value: unknown): SetAsideString[] {
  const setAside: SetAsideString[] = [];
  const stack: { holder: unknown; path: (string | number)[] }[] = [{ holder: value, path: [] }];
  while (stack.length) {
    const { holder, path } = stack.pop()!;
    if (typeof holder !== "object" || holder === null) continue;
    const record = holder as Record<string | number, unknown>;
    const keys: (string | number)[] = Array.isArray(holder)
      ? holder.map((_, index) => index)
      : Object.keys(holder);
    for (const key of keys) {
      const item = record[key];
      if (typeof item === "string" && item.length >= LONG_STRING_CHARACTERS) {
        setAside.push(setAsideString([...path, key], item));
        record[key] = "";
      } else if (typeof item === "object" && item !== null) {
        stack.push({ holder: item, path: [...path, key] });
      }
    }
  }
  return setAside;
}

/** Inline data as its bytes when its base64 is exactly theirs (so it reads back the same). */
function setAsideString(path: (string | number)[], text: string): SetAsideString {
  if (path.at(-1) === "data" && path.at(-2) === "inlineData") {
    const bytes = Buffer.from(text, "base64");
    if (bytes.toString("base64") === text) return { path, bytes };
  }
  return { path, text };
}

/** The buffers of the bytes set aside, to hand over with the message that carries them. */
export function setAsideBuffers(setAside: readonly SetAsideString[]): ArrayBuffer[] {
  return setAside.flatMap((entry) => ("bytes" in entry ? [entry.bytes.buffer as ArrayBuffer] : []));
}

/** Puts strings set aside by setAsideLongStrings back in their places in `value`. */
export function putBackLongStrings(value: unknown, setAside: readonly SetAsideString[]): void {
  for (const entry of setAside) {
    let holder = value as Record<string | number, unknown>;
    for (const key of entry.path.slice(0, -1))
      holder = holder[key] as Record<string | number, unknown>;
    const key = entry.path.at(-1)!;
    if ("bytes" in entry) setPiecedText(holder, String(key), [entry.bytes]);
    else holder[key] = entry.text;
  }
}
