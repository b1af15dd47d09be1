import "server-only";
import type { ConversationHead } from "@/lib/studio/conversation-schema";
import { conversationUpdatedAt, messageAfter } from "@/lib/db/conversations";
import type { Db } from "@/lib/db/database";

/** Pieces of a streamed answer: messages are added to one until it reaches this many characters. */
export const PIECE_CHARACTERS = 256 * 1024;

/**
 * The conversation as JSON, a message at a time, so a long one (inline media, long answers)
 * is never held whole for a slow reader. A write that lands while it is read ends the answer
 * as an error rather than mixing two versions.
 */
export function* conversationJson(
  db: Db,
  ownerId: string,
  head: ConversationHead,
): Generator<string> {
  const opening = JSON.stringify(head);
  let piece = `${opening.slice(0, -1)},"messages":[`;
  let position = -1;
  for (;;) {
    if (conversationUpdatedAt(db, ownerId, head.id) !== head.updatedAt)
      throw new Error(`conversation ${head.id} changed while it was read`);
    const next = messageAfter(db, head.id, position);
    if (!next) break;
    piece += `${position === -1 ? "" : ","}${JSON.stringify(next.message)}`;
    position = next.position;
    if (piece.length >= PIECE_CHARACTERS) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}]}\n`;
}
