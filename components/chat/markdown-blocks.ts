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

/**
 * A text's blocks, and where its last group of blocks starts: the last paragraph, list, table
 * or fence (cut in pieces when long), which may still grow. Everything before it is final once
 * text is only appended.
 */
export interface BlockSplit {
  text: string;
  blocks: string[];
  /** Offset in `text` of the line the last group starts at (no fence is open there). */
  tailStart: number;
  /** Blocks of the last group (its pieces, when it was cut). */
  tailBlocks: number;
}

function splitFrom(text: string): BlockSplit {
  const blocks: string[] = [];
  let current: string[] = [];
  let currentStart = 0;
  let fence: string | null = null;
  let tailStart = 0;
  let tailBlocks = 0;
  const flush = () => {
    if (current.length === 0) return;
    const pieces = cutLongBlock(current.join("\n"));
    blocks.push(...pieces);
    tailStart = currentStart;
    tailBlocks = pieces.length;
    current = [];
  };
  let offset = 0;
  for (const line of text.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (marker) {
        flush();
        fence = marker;
        currentStart = lineStart;
        current.push(line);
        continue;
      }
      if (line.trim() === "") {
        flush();
        continue;
      }
      if (current.length === 0) currentStart = lineStart;
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
  return { text, blocks, tailStart, tailBlocks };
}

/** The blocks of a markdown text, in order; joining them with blank lines renders the same. */
export function splitMarkdownBlocks(text: string): string[] {
  return splitFrom(text).blocks;
}

/**
 * The blocks of `text`, reusing the split of an earlier text it extends (a streamed answer):
 * only the last group onwards is split again, so a frame's work follows what was added, not
 * the whole answer. Any other text is split whole. Same blocks as splitMarkdownBlocks.
 */
export function splitGrowingMarkdown(previous: BlockSplit | null, text: string): BlockSplit {
  if (!previous || previous.blocks.length === 0 || !text.startsWith(previous.text))
    return splitFrom(text);
  if (text.length === previous.text.length) return previous;
  const tail = splitFrom(text.slice(previous.tailStart));
  return {
    text,
    blocks: [
      ...previous.blocks.slice(0, previous.blocks.length - previous.tailBlocks),
      ...tail.blocks,
    ],
    tailStart: previous.tailStart + tail.tailStart,
    tailBlocks: tail.tailBlocks,
  };
}
