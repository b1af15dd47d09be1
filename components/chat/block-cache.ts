/**
 * What a markdown block renders to, kept by the block's source text: a streamed answer's
 * completed blocks are parsed once, however often the answer around them renders again (every
 * frame while it streams, the saved answer replacing the streamed one, a conversation opened
 * again). Formulas typeset ahead are kept the same way, by their TeX. Bounded by the characters
 * of the texts kept, least recently used dropped first.
 */
export interface BlockCache<Rendered> {
  /** The text's rendering, rendered and kept if it is not kept yet. */
  get(text: string): Rendered;
  /** The text's rendering if it is kept; nothing is rendered or kept. */
  peek(text: string): Rendered | undefined;
}

export function createBlockCache<Rendered>(
  render: (text: string) => Rendered,
  maxCharacters: number,
): BlockCache<Rendered> {
  // A Map iterates in insertion order: a hit is moved to the end, the first entry is the oldest.
  const entries = new Map<string, Rendered>();
  let characters = 0;
  return {
    peek(text) {
      return entries.get(text);
    },
    get(text) {
      const kept = entries.get(text);
      if (kept !== undefined) {
        entries.delete(text);
        entries.set(text, kept);
        return kept;
      }
      const rendered = render(text);
      entries.set(text, rendered);
      characters += text.length;
      for (const oldest of entries.keys()) {
        if (characters <= maxCharacters || oldest === text) break;
        entries.delete(oldest);
        characters -= oldest.length;
      }
      return rendered;
    },
  };
}
