/**
 * Text written in many small bits, gathered into flat pieces: a string built with
 * `+=` from a million bits is a rope that its first reader flattens in one go, holding the
 * thread for as long as the whole text takes.
 */

/** Largest run of text handed to one native call: a join here, a JSON.parse or JSON.stringify. */
export const PIECE_CHARACTERS = 65_536;

/** Gathers bits into flat pieces of about `piece` characters. */
export class PieceWriter {
  readonly pieces: string[] = [];
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(readonly piece: number = PIECE_CHARACTERS) {}

  get empty(): boolean {
    return this.pieces.length === 0 && this.pendingLength === 0;
  }

  write(text: string): void {
    if (!text) return;
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= this.piece) this.flush();
  }

  /** Everything written, as one string (a copy of a few hundred pieces at most). */
  text(): string {
    this.flush();
    return this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
  }

  /** Everything written, and a fresh start. */
  take(): string {
    const text = this.text();
    this.pieces.length = 0;
    return text;
  }

  flush(): void {
    if (this.pending.length === 0) return;
    this.pieces.push(this.pending.length === 1 ? this.pending[0]! : this.pending.join(""));
    this.pending = [];
    this.pendingLength = 0;
  }
}
