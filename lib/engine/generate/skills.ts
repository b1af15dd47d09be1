/**
 * Two literal skills of the local model, documented so tests and demos can steer its text:
 * "Repeat after me: <text>" (also "Say exactly: <text>") answers exactly <text>, and
 * "Decode this base64: <data>" answers the decoded UTF-8 text. Neither is rated as part of
 * the prompt any differently: the decoded text only exists in the answer, which is how a
 * blocked *candidate* can be produced on purpose (see lib/engine/safety/README.md).
 * Both are read by hand in linear time (the regexes they replace backtracked over runs of
 * whitespace: a prompt of "repeat after me: a", 300,000 spaces and "b" took half a minute).
 */

const REPEAT_MARKERS = ["repeat after me", "say exactly"];
const BASE64_CHARACTERS = /[A-Za-z0-9+/_-]/;

function isSpace(character: string | undefined): boolean {
  return character !== undefined && /\s/.test(character);
}

/** Index after the whitespace starting at `index`. */
function skipSpaces(text: string, index: number): number {
  while (index < text.length && isSpace(text[index])) index += 1;
  return index;
}

/** Index of the whitespace run ending just before `end` (its start). */
function skipSpacesBack(text: string, end: number): number {
  while (end > 0 && isSpace(text[end - 1])) end -= 1;
  return end;
}

/** "Repeat after me: <text>": the text after the first marker, trimmed, quotes removed. */
function repeated(text: string, lower: string): string | undefined {
  let at = -1;
  let marker = "";
  for (const candidate of REPEAT_MARKERS) {
    const found = lower.indexOf(candidate);
    if (found >= 0 && (at < 0 || found < at)) {
      at = found;
      marker = candidate;
    }
  }
  if (at < 0) return undefined;
  let start = skipSpaces(text, at + marker.length);
  if (text[start] === ":" || text[start] === "," || text[start] === "-")
    start = skipSpaces(text, start + 1);
  const end = skipSpacesBack(text, text.length);
  if (end <= start) return undefined;
  const body = text.slice(start, end);
  const quoted =
    body.length >= 2 && (body[0] === '"' || body[0] === "“") && (body.at(-1) === '"' || body.at(-1) === "”");
  return quoted ? body.slice(1, -1) : body;
}

/**
 * "Decode [this | the following] base64 [string | text][:,-] <data>" at the end of the text:
 * read backwards from the end, word by word, so the cost is the length of the phrase.
 */
function decodedData(text: string, lower: string): string | undefined {
  const end = skipSpacesBack(text, text.length);
  let start = end;
  while (start > 0 && text[start - 1] === "=" && end - start < 2) start -= 1;
  while (start > 0 && BASE64_CHARACTERS.test(text[start - 1]!)) start -= 1;
  const data = text.slice(start, end);
  if (data.replace(/=+$/, "").length < 4) return undefined;
  let cursor = skipSpacesBack(text, start);
  if (text[cursor - 1] === ":" || text[cursor - 1] === "," || text[cursor - 1] === "-")
    cursor = skipSpacesBack(text, cursor - 1);
  const wordBefore = (position: number): [string, number] => {
    let from = position;
    while (from > 0 && /[a-z0-9]/.test(lower[from - 1]!)) from -= 1;
    return [lower.slice(from, position), from];
  };
  let [word, from] = wordBefore(cursor);
  if (word === "string" || word === "text") {
    cursor = skipSpacesBack(text, from);
    [word, from] = wordBefore(cursor);
  }
  if (word !== "base64") return undefined;
  cursor = skipSpacesBack(text, from);
  [word, from] = wordBefore(cursor);
  if (word === "this") {
    cursor = skipSpacesBack(text, from);
    [word, from] = wordBefore(cursor);
  } else if (word === "following") {
    cursor = skipSpacesBack(text, from);
    const [article, articleFrom] = wordBefore(cursor);
    if (article !== "the") return undefined;
    cursor = skipSpacesBack(text, articleFrom);
    [word, from] = wordBefore(cursor);
  }
  if (word !== "decode") return undefined;
  // "decode" must be followed by whitespace, as the phrase reads ("decodebase64" is not it).
  if (!isSpace(text[from + "decode".length])) return undefined;
  return data;
}

/** The literal answer a skill gives to the last user turn, if one applies. */
export function literalAnswer(lastUserText: string): string | undefined {
  const lower = lastUserText.toLowerCase();
  const data = decodedData(lastUserText, lower);
  if (data) {
    const bytes = Buffer.from(data.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    if (text && !text.includes("\uFFFD")) return text;
  }
  return repeated(lastUserText, lower);
}
