/**
 * Text → token id for the forced-text encoder, as an open-addressing hash table over one
 * string of all the texts: a Map of a vocabulary's 256,000 texts is that many strings and a
 * table of pointers the collector marks in every full collection for the life of the process;
 * this is two strings' worth of objects and typed arrays. Looked up by a stretch of a longer
 * text, with no string cut out for it.
 */
export class ForcedTextIndex {
  private readonly text: string;
  /** Entry i's text is text[starts[i], starts[i + 1]); its token id ids[i]. */
  private readonly starts: Int32Array;
  private readonly ids: Int32Array;
  /** Entry number + 1 per slot; 0 is empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `entries` in order: for a text listed twice, the first id is kept. */
  constructor(entries: Iterable<[text: string, id: number]>) {
    const texts: string[] = [];
    const ids: number[] = [];
    for (const [text, id] of entries) {
      texts.push(text);
      ids.push(id);
    }
    let capacity = 1;
    while (capacity < texts.length * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity);
    this.text = texts.join("");
    this.starts = new Int32Array(texts.length + 1);
    this.ids = Int32Array.from(ids);
    for (let entry = 0; entry < texts.length; entry++)
      this.starts[entry + 1] = this.starts[entry]! + texts[entry]!.length;
    for (let entry = 0; entry < texts.length; entry++) {
      const start = this.starts[entry]!;
      const end = this.starts[entry + 1]!;
      const slot = this.slotOf(this.text, start, end);
      if (this.slots[slot] === 0) this.slots[slot] = entry + 1;
    }
  }

  /** The id of the text source[start, end), or -1. */
  get(source: string, start: number, end: number): number {
    const entry = this.slots[this.slotOf(source, start, end)]!;
    return entry === 0 ? -1 : this.ids[entry - 1]!;
  }

  /** The slot holding source[start, end), or the empty slot where it would go. */
  private slotOf(source: string, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let index = start; index < end; index++)
      hash = Math.imul(hash ^ source.charCodeAt(index), 0x01000193);
    let slot = hash & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0 || this.holds(entry - 1, source, start, end)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private holds(entry: number, source: string, start: number, end: number): boolean {
    const from = this.starts[entry]!;
    if (this.starts[entry + 1]! - from !== end - start) return false;
    for (let offset = 0; offset < end - start; offset++)
      if (this.text.charCodeAt(from + offset) !== source.charCodeAt(start + offset)) return false;
    return true;
  }
}
