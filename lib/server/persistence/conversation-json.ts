import "server-only";
import type { ConversationHead } from "@/lib/studio/conversation-schema";
import type { ConversationStore } from "@/lib/db/stores/conversation-store";

/** Pieces of a streamed answer: messages are added to one until it reaches this many characters. */
export const PIECE_CHARACTERS = 256 * 1024;

/**
 * The conversation as JSON, a message at a time, so a long one (inline media, long answers)
 * is never held whole for a slow reader. A write that lands while it is read ends the answer
 * as an error rather than mixing two versions.
 */
export async function* conversationJson(
  conversations: ConversationStore,
  ownerId: string,
  head: ConversationHead,
): AsyncGenerator<string> {
  const opening = JSON.stringify(head);
  let piece = `${opening.slice(0, -1)},"messages":[`;
  let sequence = 0;
  for (;;) {
    if ((await conversations.updatedAt(ownerId, head.id)) !== head.updatedAt)
      throw new Error(`conversation ${head.id} changed while it was read`);
    const next = await conversations.messageAfter(ownerId, head.id, sequence);
    if (!next) break;
    piece += `${sequence === 0 ? "" : ","}${JSON.stringify(next.message)}`;
    sequence = next.sequence;
    if (piece.length >= PIECE_CHARACTERS) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}]}\n`;
}
