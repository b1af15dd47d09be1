/**
 * Long CPU work on request text (rating a 16 MB prompt, indexing citation sources) runs in
 * slices: after about SLICE_MILLISECONDS of work the loop yields one event-loop turn, so
 * other requests are served meanwhile and a closed client can stop the work.
 */
export const SLICE_MILLISECONDS = 8;

/** Characters handled between two looks at the clock. */
export const SLICE_CHARACTERS = 32_768;

export class TimeSlices {
  private sliceStarted = performance.now();

  /** Returns at once while the slice lasts; otherwise after one event-loop turn. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStarted < SLICE_MILLISECONDS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStarted = performance.now();
  }
}

/**
 * Where a slice of `text` starting at `from` should end: near `from + SLICE_CHARACTERS`, just
 * after whitespace within 64 characters of it, so a word is not cut (a longer word is cut
 * anyway; no word list knows words that long).
 */
export function sliceEnd(text: string, from: number): number {
  const nominal = from + SLICE_CHARACTERS;
  if (nominal >= text.length) return text.length;
  for (let index = nominal; index > nominal - 64 && index > from; index--)
    if (/\s/.test(text[index - 1]!)) return index;
  for (let index = nominal; index < nominal + 64 && index < text.length; index++)
    if (/\s/.test(text[index]!)) return index;
  return nominal;
}
