/**
 * Two literal skills of the local model, documented so tests and demos can steer its text:
 * "Repeat after me: <text>" (also "Say exactly: <text>") answers exactly <text>, and
 * "Decode this base64: <data>" answers the decoded UTF-8 text. Neither is rated as part of
 * the prompt any differently: the decoded text only exists in the answer, which is how a
 * blocked *candidate* can be produced on purpose (see lib/engine/safety/README.md).
 * Both are read by hand in linear time (the regexes they replace backtracked over runs of
 * whitespace: a prompt of "repeat after me: a", 300,000 spaces and "b" took half a minute).
 */

/** Matched left to right without backtracking (a literal alternation). */
const REPEAT_MARKER = /repeat after me|say exactly/i;
/** Longest base64 data the decode skill reads (a longer run at the end is not the skill). */
const MAX_DATA_CHARACTERS = 1_000_000;

function isBase64Character(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 ||
    code === 47 ||
    code === 95 ||
    code === 45
  );
}

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
function repeated(text: string): string | undefined {
  const marker = REPEAT_MARKER.exec(text);
  if (!marker) return undefined;
  let start = skipSpaces(text, marker.index + marker[0].length);
  if (text[start] === ":" || text[start] === "," || text[start] === "-")
    start = skipSpaces(text, start + 1);
  const end = skipSpacesBack(text, text.length);
  if (end <= start) return undefined;
  const body = text.slice(start, end);
  const quoted =
    body.length >= 2 &&
    (body[0] === '"' || body[0] === "“") &&
    (body.at(-1) === '"' || body.at(-1) === "”");
  return quoted ? body.slice(1, -1) : body;
}

/**
 * "Decode [this | the following] base64 [string | text][:,-] <data>" at the end of the text:
 * read backwards from the end, word by word, so the cost is the length of the phrase.
 */
function decodedData(text: string): string | undefined {
  const end = skipSpacesBack(text, text.length);
  let start = end;
  while (start > 0 && text[start - 1] === "=" && end - start < 2) start -= 1;
  const limit = Math.max(0, start - MAX_DATA_CHARACTERS - 1);
  while (start > limit && isBase64Character(text.charCodeAt(start - 1))) start -= 1;
  if (start === limit && limit > 0) return undefined;
  const data = text.slice(start, end);
  if (data.replace(/=+$/, "").length < 4) return undefined;
  let cursor = skipSpacesBack(text, start);
  if (text[cursor - 1] === ":" || text[cursor - 1] === "," || text[cursor - 1] === "-")
    cursor = skipSpacesBack(text, cursor - 1);
  const wordBefore = (position: number): [string, number] => {
    let from = position;
    while (from > 0 && position - from <= 16 && /[A-Za-z0-9]/.test(text[from - 1]!)) from -= 1;
    return [text.slice(from, position).toLowerCase(), from];
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
  const data = decodedData(lastUserText);
  if (data) {
    const bytes = Buffer.from(data.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    if (text && !text.includes("\uFFFD")) return text;
  }
  return repeated(lastUserText);
}
