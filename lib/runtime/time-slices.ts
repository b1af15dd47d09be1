/**
 * Long CPU work on request text (rating a 16 MB prompt, indexing citation sources, reading a
 * 16 MB body) runs in slices: after about SLICE_MILLISECONDS of work the loop yields to the
 * event loop, so other requests are served meanwhile and a closed client can stop the work.
 * Slicers take turns: each turn of the event loop runs one slice at most.
 */
export const SLICE_MILLISECONDS = 8;

/** Characters handled between two looks at the clock. */
export const SLICE_CHARACTERS = 32_768;

/**
 * The slicers waiting for their next slice, oldest first, shared by every TimeSlices of the
 * process (and by every copy of this module a server build holds): one is let go per turn of
 * the event loop, so that two requests slicing at once still hold a turn for one slice, not
 * one slice each.
 */
const queue = ((
  globalThis as typeof globalThis & { __genstudioSlices?: SliceQueue }
).__genstudioSlices ??= { waiting: [], scheduled: false });

interface SliceQueue {
  waiting: (() => void)[];
  scheduled: boolean;
}

function releaseNext(): void {
  queue.scheduled = false;
  queue.waiting.shift()?.();
  if (queue.waiting.length) scheduleRelease();
}

function scheduleRelease(): void {
  if (queue.scheduled) return;
  queue.scheduled = true;
  setImmediate(releaseNext);
}

/** Resolves at a later turn of the event loop, when this slicer's turn comes. */
function nextSlice(): Promise<void> {
  return new Promise<void>((resolve) => {
    queue.waiting.push(resolve);
    scheduleRelease();
  });
}

/** Small items (a part, a schema node, a step) handled between two looks at the clock. */
const ITEMS_PER_LOOK = 64;

export class TimeSlices {
  private sliceStarted = performance.now();
  private items = 0;

  /**
   * True once this slice has lasted SLICE_MILLISECONDS. Loops over many small items call it
   * per item and `await pause()` only when it says so (an `await` per item costs more than
   * the item).
   */
  due(): boolean {
    return performance.now() - this.sliceStarted >= SLICE_MILLISECONDS;
  }

  /**
   * due(), for loops over a great many small items: called once per item, it looks at the
   * clock once per ITEMS_PER_LOOK items (a look costs more than a small item).
   */
  dueAfterItem(): boolean {
    return ++this.items % ITEMS_PER_LOOK === 0 && this.due();
  }

  /** Returns at once while the slice lasts; otherwise after one event-loop turn. */
  async pause(): Promise<void> {
    if (!this.due()) return;
    await nextSlice();
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

/** Runs a generator that yields between items (a rule check, see lib/gemini's Steps) in slices. */
export async function runInSlices<Result>(
  steps: Generator<void, Result, void>,
  slices: TimeSlices = new TimeSlices(),
): Promise<Result> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (slices.dueAfterItem()) await slices.pause();
  }
}
