/**
 * The long strings of a body read in the body reader worker, sent back beside its JSON pieces
 * (json-pieces.ts) rather than in them, and never as strings: a string of megabytes in a
 * message is made on the request's thread in one go as the message arrives (a fresh string of
 * 12 MiB is 50 to 100 ms of one copy into memory that is slow to map), and a prompt that long
 * is most often refused by the input token limit, which needs only its count.
 *
 * So a long string comes back as its code units in memory shared with the workers
 * (lib/runtime/encoded-text.ts) and is set as pieced text: the tokenizer worker counts it as
 * it is, and it is decoded on the request's thread only if something reads the member.
 * Inline data (`inlineData.data`) goes further: its base64 is decoded here, in the worker, and
 * its bytes are handed over rather than copied; the member reads as its base64 (pieced text)
 * and the engine takes its bytes as they are.
 */
import { sharedCodeUnits, type EncodedText } from "@/lib/runtime/encoded-text";
import { setPiecedText } from "@/lib/runtime/pieced-text";

/** Strings this long or longer are set aside. */
export const LONG_STRING_CHARACTERS = 1_048_576;

/**
 * A string set aside: where it was (keys and indexes from the top) and its text as code units,
 * or for inline data, the bytes its base64 stands for.
 */
export type SetAsideString =
  | { path: (string | number)[]; encoded: EncodedText }
  | { path: (string | number)[]; bytes: Uint8Array };

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
  return { path, encoded: sharedCodeUnits(text) };
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
    setPiecedText(holder, String(key), ["bytes" in entry ? entry.bytes : entry.encoded]);
  }
}
