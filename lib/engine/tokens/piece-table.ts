/**
 * A vocabulary's pieces (id → piece) kept as one string and the offsets of its pieces. A
 * family's 256,000 pieces as separate strings are that many objects on the heap for as long as
 * the process lives, marked again by every full collection of the server's main thread; one
 * string and one typed array are two. A piece is cut out when asked for.
 */
export class PieceTable {
  readonly size: number;
  private readonly text: string;
  /** Piece i is text[starts[i], starts[i + 1]). */
  private readonly starts: Int32Array;

  private constructor(text: string, starts: Int32Array) {
    this.text = text;
    this.starts = starts;
    this.size = starts.length - 1;
  }

  static from(pieces: readonly string[]): PieceTable {
    const starts = new Int32Array(pieces.length + 1);
    for (let id = 0; id < pieces.length; id++)
      starts[id + 1] = starts[id]! + (pieces[id]?.length ?? 0);
    return new PieceTable(pieces.join(""), starts);
  }

  /** The piece of `id`, or undefined for an id outside the table. */
  get(id: number): string | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.size) return undefined;
    return this.text.slice(this.starts[id]!, this.starts[id + 1]!);
  }

  /** The first id of `piece`, or -1. */
  indexOf(piece: string): number {
    for (let id = 0; id < this.size; id++)
      if (
        this.starts[id + 1]! - this.starts[id]! === piece.length &&
        this.text.startsWith(piece, this.starts[id]!)
      )
        return id;
    return -1;
  }
}
