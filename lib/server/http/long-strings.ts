/**
 * The long strings of a body read in the body reader worker, sent back beside its JSON text
 * rather than in it. Inside the text, the request's thread would receive a copy of the long
 * string in the text and then make another, the string itself, in one go: for a prompt of
 * 12 MiB or a document of 10 MB inline, two copies of megabytes while every other caller
 * waits. Beside it, the string arrives once, as itself.
 */

/** Strings this long or longer are set aside. */
export const LONG_STRING_CHARACTERS = 1_048_576;

/** A string set aside: where it was (keys and indexes from the top) and its text. */
export interface SetAsideString {
  path: (string | number)[];
  text: string;
}

/**
 * Takes every long string out of plain JSON data `value`, leaving "" in its place (so the
 * data's JSON text stays short), and returns them with their places.
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
        setAside.push({ path: [...path, key], text: item });
        record[key] = "";
      } else if (typeof item === "object" && item !== null) {
        stack.push({ holder: item, path: [...path, key] });
      }
    }
  }
  return setAside;
}

/** Puts strings set aside by setAsideLongStrings back in their places in `value`. */
export function putBackLongStrings(value: unknown, setAside: readonly SetAsideString[]): void {
  for (const { path, text } of setAside) {
    let holder = value as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
    holder[path.at(-1)!] = text;
  }
}
