/**
 * An interaction's long strings kept apart from the JSON that holds them. A speech answer is
 * tens of megabytes of base64, in its stream's events and again in its result and its turns:
 * written inside the JSON, each copy is one long escape, one long statement and, read back,
 * one long parse on the request's thread. Here every string of LONG_TEXT_CHARACTERS or more
 * that is an object's member is stored as pieces (the store's `interaction_pieces`), a
 * statement of a few pieces at a time with other callers' work in between, and the JSON keeps
 * "" in its place and a list of where each goes. Read back, each is set from its pieces as
 * pieced text (lib/runtime/pieced-text.ts): written to a client from the pieces, joined only if
 * something reads it. A writer reuses the pieces of a string it stored before when the same
 * string comes again in the same order (the result's audio is the events' audio), so an
 * answer's audio is stored once. Strings inside arrays stay in the JSON (no answer puts long
 * ones there).
 */
import { randomBytes } from "node:crypto";
import type { InteractionStore, StoredJson, TextPiece } from "@/lib/db/stores/interaction-store";
import { interactionNotFound } from "@/lib/gemini/interactions/errors";
import {
  isBase64Bytes,
  pieceTexts,
  piecedText,
  setPiecedText,
  type PieceOfText,
} from "@/lib/runtime/pieced-text";
import { TimeSlices } from "@/lib/runtime/time-slices";

/** Strings at least this long are kept apart (a second of speech is 64,000 characters). */
export const LONG_TEXT_CHARACTERS = 16_384;
/** Characters of one stored piece at most. */
const PIECE_CHARACTERS = 262_144;
/** Characters of pieces written by one statement (then other work gets its turn). */
const STATEMENT_CHARACTERS = 1_048_576;
/** Pieces read by one statement. */
const READ_PIECES = 4;

type Path = (string | number)[];
/**
 * Where a long string goes: its path in the value, its id, the pieces it is made of, and
 * (1) when it is the base64 of bytes made by the engine, to be read back as those bytes.
 */
type TextPlace = [path: Path, textId: string, pieces: number, bytes?: 1];

/** A long string as found: the string itself, or the pieces of a pieced member. */
type Source = string | readonly PieceOfText[];

interface StoredText {
  source: Source;
  textId: string;
  pieces: number;
  /** The source is bytes (pieced text of byte pieces only), stored as their base64. */
  bytes: boolean;
}

export class LongTextWriter {
  /** The long strings this writer stored, in order, for a later value holding them again. */
  private readonly stored: StoredText[] = [];
  private readonly slices = new TimeSlices();
  private batch: TextPiece[] = [];
  private batchCharacters = 0;

  constructor(
    private readonly store: InteractionStore,
    private readonly interactionId: string,
  ) {}

  /**
   * `value` as stored: its long strings written as pieces, its JSON without them. With
   * `reuse`, a long string that is the next one this writer stored (in its order) is not
   * written again: the place names the stored pieces.
   */
  async write(value: object, options: { reuse?: boolean } = {}): Promise<StoredJson> {
    const places: TextPlace[] = [];
    let next = 0;
    const copy = await this.copyWithout(value, async (path, source) => {
      const earlier = options.reuse ? this.stored[next] : undefined;
      // The same string (or the same pieces); two strings of one length are compared, and
      // differ within their first characters unless they are the same.
      if (earlier && earlier.source === source) {
        next += 1;
        places.push(place(path, earlier));
        return;
      }
      const text = await this.writeText(source);
      if (!options.reuse) this.stored.push(text);
      places.push(place(path, text));
    });
    await this.flush();
    return { json: JSON.stringify(copy), texts: places.length ? JSON.stringify(places) : null };
  }

  /**
   * A copy of plain JSON data whose long object members are "" (each handed to `found` with
   * its path), containers copied without prototypes so no key is special.
   */
  private async copyWithout(
    value: object,
    found: (path: Path, source: Source) => Promise<void>,
  ): Promise<unknown> {
    const copyOf = async (item: unknown, path: Path): Promise<unknown> => {
      if (this.slices.dueAfterItem()) await this.slices.pause();
      if (typeof item !== "object" || item === null) return item;
      if (Array.isArray(item)) {
        const list: unknown[] = [];
        for (let index = 0; index < item.length; index++)
          list.push(await copyOf(item[index], [...path, index]));
        return list;
      }
      const copy = Object.create(null) as Record<string, unknown>;
      const record = item as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const pieces = piecedText(record, key);
        const member = pieces ? undefined : record[key];
        if (pieces || (typeof member === "string" && member.length >= LONG_TEXT_CHARACTERS)) {
          await found([...path, key], pieces ?? (member as string));
          copy[key] = "";
        } else copy[key] = await copyOf(member, [...path, key]);
      }
      return copy;
    };
    return copyOf(value, []);
  }

  /** Writes one long string's pieces (in statements of a few, with others' work between). */
  private async writeText(source: Source): Promise<StoredText> {
    const textId = randomBytes(9).toString("base64url");
    let seq = 0;
    for (const piece of piecesOf(source)) {
      this.batch.push({ textId, seq: seq++, piece });
      this.batchCharacters += piece.length;
      if (this.batchCharacters >= STATEMENT_CHARACTERS) await this.flush();
    }
    const bytes = typeof source !== "string" && source.every(isBase64Bytes);
    return { source, textId, pieces: seq, bytes };
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const batch = this.batch;
    this.batch = [];
    this.batchCharacters = 0;
    await this.store.insertPieces(this.interactionId, batch);
    await this.slices.pause();
  }
}

/**
 * `stored`'s value, its long strings read back from their pieces a few at a time (other work in
 * between) and set as pieced text. Pieces gone meanwhile (the interaction was deleted) answer
 * the interaction not found.
 */
export async function readStoredJson<Value>(
  store: InteractionStore,
  interactionId: string,
  stored: StoredJson,
  slices: TimeSlices = new TimeSlices(),
): Promise<Value> {
  const value = JSON.parse(stored.json) as Value;
  if (stored.texts === null) return value;
  for (const [path, textId, count, bytes] of JSON.parse(stored.texts) as TextPlace[]) {
    let holder = value as unknown as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) holder = holder[key] as typeof holder;
    const pieces: PieceOfText[] = [];
    while (pieces.length < count) {
      const page = await store.pieces(interactionId, textId, pieces.length, READ_PIECES);
      if (page.length === 0) throw interactionNotFound(interactionId);
      // Audio is read back as its bytes, off the heap (every stored piece but the last is
      // whole 4-character groups), as the run that made it held it.
      pieces.push(...(bytes ? page.map((piece) => Buffer.from(piece, "base64")) : page));
      await slices.pause();
    }
    setPiecedText(holder, String(path.at(-1)), pieces);
  }
  return value;
}

function place(path: Path, text: StoredText): TextPlace {
  return text.bytes ? [path, text.textId, text.pieces, 1] : [path, text.textId, text.pieces];
}

/**
 * A long string's pieces to store: PIECE_CHARACTERS each (the last shorter), small pieces of a
 * pieced member put together, a surrogate pair never parted (a lone half would not survive
 * the database's UTF-8).
 */
function* piecesOf(source: Source): Generator<string> {
  let pending = "";
  for (const text of typeof source === "string" ? [source] : pieceTexts(source)) {
    for (let from = 0; from < text.length;) {
      const to = Math.min(text.length, from + PIECE_CHARACTERS - pending.length);
      pending += text.slice(from, to);
      from = to;
      if (pending.length < PIECE_CHARACTERS) continue;
      const cut = isHighSurrogate(pending.charCodeAt(pending.length - 1))
        ? pending.length - 1
        : pending.length;
      yield pending.slice(0, cut);
      pending = pending.slice(cut);
    }
  }
  if (pending) yield pending;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
