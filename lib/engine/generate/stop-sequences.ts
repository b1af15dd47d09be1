/**
 * stopSequences for streamed text: output stops at the first occurrence of any sequence and
 * the sequence is left out. Text that could still become the start of a sequence is held
 * back until the next token decides, so a sequence split across tokens (or chunks) is caught.
 */
export class StopSequenceFilter {
  private pending = "";
  private readonly sequences: string[];

  constructor(sequences: readonly string[] | undefined) {
    this.sequences = (sequences ?? []).filter((sequence) => sequence.length > 0);
  }

  /** Adds text; returns what may be emitted now and whether a stop sequence was reached. */
  push(text: string): { emit: string; stopped: boolean } {
    if (this.sequences.length === 0) return { emit: text, stopped: false };
    this.pending += text;
    let cut = -1;
    for (const sequence of this.sequences) {
      const index = this.pending.indexOf(sequence);
      if (index !== -1 && (cut === -1 || index < cut)) cut = index;
    }
    if (cut !== -1) {
      const emit = this.pending.slice(0, cut);
      this.pending = "";
      return { emit, stopped: true };
    }
    const hold = this.heldBack();
    const emit = this.pending.slice(0, this.pending.length - hold);
    this.pending = this.pending.slice(this.pending.length - hold);
    return { emit, stopped: false };
  }

  /** At the natural end: whatever was held back is plain text after all. */
  flush(): string {
    const rest = this.pending;
    this.pending = "";
    return rest;
  }

  /** Length of the longest suffix of the pending text that is a proper prefix of a sequence. */
  private heldBack(): number {
    let longest = 0;
    for (const sequence of this.sequences) {
      const maximum = Math.min(sequence.length - 1, this.pending.length);
      for (let length = maximum; length > longest; length--) {
        if (this.pending.endsWith(sequence.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
