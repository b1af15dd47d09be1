/**
 * Splits markdown into top-level blocks at blank lines outside fenced code, so a streamed
 * answer re-parses only its last block per frame: earlier blocks keep their text and their
 * memoised rendering. Paragraphs longer than MAX_BLOCK_CHARACTERS are cut at a line break or
 * sentence end (shown as a paragraph break), which keeps the per-frame cost bounded even when
 * a model writes one endless paragraph.
 */

export const MAX_BLOCK_CHARACTERS = 3000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function cutLongBlock(block: string): string[] {
  if (block.length <= MAX_BLOCK_CHARACTERS || FENCE.test(block)) return [block];
  const pieces: string[] = [];
  let rest = block;
  while (rest.length > MAX_BLOCK_CHARACTERS) {
    const window = rest.slice(0, MAX_BLOCK_CHARACTERS);
    let cut = window.lastIndexOf("\n");
    if (cut < MAX_BLOCK_CHARACTERS / 2) {
      const sentence = Math.max(
        window.lastIndexOf(". "),
        window.lastIndexOf("! "),
        window.lastIndexOf("? "),
      );
      cut = sentence >= MAX_BLOCK_CHARACTERS / 2 ? sentence + 1 : window.lastIndexOf(" ");
    }
    if (cut <= 0) cut = MAX_BLOCK_CHARACTERS;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** The blocks of a markdown text, in order; joining them with blank lines renders the same. */
export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (current.length > 0) blocks.push(...cutLongBlock(current.join("\n")));
    current = [];
  };
  for (const line of text.split("\n")) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) {
        flush();
        fence = marker;
        current.push(line);
        continue;
      }
      if (line.trim() === "") {
        flush();
        continue;
      }
      current.push(line);
    } else {
      current.push(line);
      if (
        marker &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        line.trim() === marker
      ) {
        fence = null;
        flush();
      }
    }
  }
  flush();
  return blocks;
}
