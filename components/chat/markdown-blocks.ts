/**
 * Splits markdown into top-level blocks at blank lines, so a streamed answer re-parses only its
 * last block per frame: earlier blocks keep their text and their rendering (see block-cache.ts).
 * A blank line separates blocks only where the whole text would also end a block there: not
 * inside fenced code or `$$` math, not between the items or paragraphs of a list, not inside
 * indented code. One pass over the lines; a growing text is split again from its last block
 * only (splitGrowingMarkdown).
 *
 * A paragraph longer than MAX_BLOCK_CHARACTERS is cut at a line break or sentence end (shown as
 * a paragraph break), which keeps the per-frame cost bounded even when a model writes one
 * endless paragraph. Lists, tables, quotes and math are never cut: their pieces would render
 * differently.
 */

export const MAX_BLOCK_CHARACTERS = 3000;

const CODE_FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** remark-math's display math: `$$` (or more) on a line, with no dollar after it. */
const MATH_FENCE = /^ {0,3}(\${2,})[^$]*$/;
const LIST_ITEM = /^ {0,3}([-+*]|\d{1,9}[.)])([ \t]|$)/;
const INDENTED_CODE = /^( {4}|\t)/;
/** A line that makes a block something other than plain paragraph text, if it is in it. */
const NOT_PARAGRAPH =
  /^\s*([>|#]|[-+*]([ \t]|$)|\d{1,9}[.)]([ \t]|$)|\${2}|`{3}|~{3}|=+\s*$|-+\s*$|<)|\|/;

type BlockKind = "paragraph" | "list" | "indented" | "fenced";

function kindOf(firstLine: string): BlockKind {
  if (INDENTED_CODE.test(firstLine)) return "indented";
  if (LIST_ITEM.test(firstLine)) return "list";
  return "paragraph";
}

/** A list item's kind of marker: its bullet, or an ordered item's delimiter; null if none. */
function listMarker(line: string): string | null {
  const marker = LIST_ITEM.exec(line)?.[1];
  return marker === undefined ? null : marker.at(-1)!;
}

/**
 * Whether a line after blank lines still belongs to the block before them: an indented line
 * under a list (an item's paragraph, code or nested list), the list's next item (the same kind
 * of marker; another starts a new list), or more indented code.
 */
function continuesAfterBlank(kind: BlockKind, marker: string | null, line: string): boolean {
  if (kind === "list") return /^[ \t]/.test(line) || listMarker(line) === marker;
  if (kind === "indented") return INDENTED_CODE.test(line);
  return false;
}

function cutLongParagraph(lines: readonly string[], block: string): string[] {
  if (block.length <= MAX_BLOCK_CHARACTERS || lines.some((line) => NOT_PARAGRAPH.test(line)))
    return [block];
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
 * A text's blocks, and where the blocks that may still change start. Everything before is final
 * once text is only appended.
 */
export interface BlockSplit {
  text: string;
  blocks: string[];
  /**
   * Offset in `text` from which its split may change when text is appended: the start of the
   * block open when the last line began (or of that line); no block or fence is open there.
   */
  tailStart: number;
  /** Blocks from tailStart on. */
  tailBlocks: number;
}

function splitFrom(text: string): BlockSplit {
  const blocks: string[] = [];
  let lines: string[] = [];
  let kind = "paragraph" as BlockKind;
  /** The marker kind of the last unindented list item in the block. */
  let marker: string | null = null;
  let start = 0;
  /** Blank lines seen after the block's last line, kept if the block goes on after them. */
  let blanks = 0;
  /** The open fence (its marker) and whether it opened inside the block (a list item's). */
  let fence: { marker: string; nested: boolean } | null = null;
  let tailStart = 0;
  let tailFrom = 0;
  const flush = () => {
    blanks = 0;
    if (lines.length === 0) return;
    const pieces =
      kind === "paragraph" ? cutLongParagraph(lines, lines.join("\n")) : [lines.join("\n")];
    blocks.push(...pieces);
    lines = [];
  };
  const begin = (line: string, lineStart: number, blockKind: BlockKind) => {
    flush();
    kind = blockKind;
    marker = listMarker(line);
    start = lineStart;
    lines.push(line);
  };
  const textLines = text.split("\n");
  let offset = 0;
  for (const [index, line] of textLines.entries()) {
    const lineStart = offset;
    offset += line.length + 1;
    if (index === textLines.length - 1) {
      // What the last line decides (a fence, a blank, a list's next item) may change as it
      // grows: a growing text is split again from the block open before it.
      tailStart = lines.length > 0 ? start : lineStart;
      tailFrom = blocks.length;
    }
    if (fence) {
      lines.push(line);
      const closing = fence.marker.startsWith("$") ? MATH_FENCE : CODE_FENCE;
      const marker = closing.exec(line)?.[1];
      if (
        marker &&
        marker[0] === fence.marker[0] &&
        marker.length >= fence.marker.length &&
        line.trim() === marker
      ) {
        const nested = fence.nested;
        fence = null;
        if (!nested) flush();
      }
      continue;
    }
    if (line.trim() === "") {
      if (lines.length > 0) blanks++;
      continue;
    }
    const afterBlank = blanks > 0;
    const continues = lines.length > 0 && (!afterBlank || continuesAfterBlank(kind, marker, line));
    const fenceMarker = (CODE_FENCE.exec(line) ?? MATH_FENCE.exec(line))?.[1];
    if (fenceMarker) {
      // A fence indented under a list item is the item's; any other starts a block of its own.
      const nested = continues && kind === "list" && /^[ \t]/.test(line);
      if (nested) {
        for (; blanks > 0; blanks--) lines.push("");
        lines.push(line);
      } else begin(line, lineStart, "fenced");
      fence = { marker: fenceMarker, nested };
      continue;
    }
    if (continues) {
      for (; blanks > 0; blanks--) lines.push("");
      lines.push(line);
      if (!/^[ \t]/.test(line)) marker = listMarker(line) ?? marker;
    } else begin(line, lineStart, kindOf(line));
  }
  flush();
  return { text, blocks, tailStart, tailBlocks: blocks.length - tailFrom };
}

/** The blocks of a markdown text, in order; joining them with blank lines renders the same. */
export function splitMarkdownBlocks(text: string): string[] {
  return splitFrom(text).blocks;
}

/**
 * The blocks of `text`, reusing the split of an earlier text it extends (a streamed answer):
 * only the last block onwards is split again, so a frame's work follows what was added, not
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
