import "server-only";
import { randomBytes } from "node:crypto";
import type {
  Conversation,
  ConversationHead,
  ConversationSettings,
  ConversationSummary,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import type { Db } from "./database";

/**
 * Conversations of the studio and their messages (migration 3). Every query is scoped by
 * owner, so one caller can never read or change another's conversation.
 */

interface ConversationRow {
  id: string;
  owner_id: string;
  title: string;
  settings_json: string;
  created_at: number;
  updated_at: number;
}

interface MessageRow {
  id: string;
  position: number;
  message_json: string;
  created_at: number;
}

function summaryOf(row: ConversationRow): ConversationSummary {
  return {
    id: row.id,
    title: row.title,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The owner's conversations, most recently updated first; `search` filters titles (case-insensitive). */
export function listConversations(
  db: Db,
  ownerId: string,
  search = "",
  limit = 200,
): ConversationSummary[] {
  const rows = search.trim()
    ? db
        .prepare(
          "SELECT * FROM conversations WHERE owner_id = ? AND title LIKE ? ESCAPE '\\' ORDER BY updated_at DESC, rowid DESC LIMIT ?",
        )
        .all(ownerId, `%${escapeLike(search.trim())}%`, limit)
    : db
        .prepare(
          "SELECT * FROM conversations WHERE owner_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?",
        )
        .all(ownerId, limit);
  return (rows as ConversationRow[]).map(summaryOf);
}

function findRow(db: Db, ownerId: string, id: string): ConversationRow | undefined {
  return db
    .prepare("SELECT * FROM conversations WHERE id = ? AND owner_id = ?")
    .get(id, ownerId) as ConversationRow | undefined;
}

function messageOf(row: MessageRow): StoredMessage {
  return {
    ...(JSON.parse(row.message_json) as StoredMessage),
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function messagesOf(db: Db, conversationId: string): StoredMessage[] {
  const rows = db
    .prepare(
      "SELECT id, position, message_json, created_at FROM conversation_messages WHERE conversation_id = ? ORDER BY position",
    )
    .all(conversationId) as MessageRow[];
  return rows.map(messageOf);
}

function headOf(row: ConversationRow): ConversationHead {
  return { ...summaryOf(row), settings: JSON.parse(row.settings_json) as ConversationSettings };
}

/**
 * The updated_at a write stamps: now, but always later than the last one, so updated_at is
 * also the conversation's revision (a streamed read notices any write that lands meanwhile).
 */
function nextStamp(row: ConversationRow, now: number): number {
  return Math.max(now, row.updated_at + 1);
}

/** A conversation without its messages, or null when the owner has none by that id. */
export function getConversationHead(db: Db, ownerId: string, id: string): ConversationHead | null {
  const row = findRow(db, ownerId, id);
  return row ? headOf(row) : null;
}

/** One conversation with its messages in order, or null when the owner has none by that id. */
export function getConversation(db: Db, ownerId: string, id: string): Conversation | null {
  const row = findRow(db, ownerId, id);
  if (!row) return null;
  return { ...headOf(row), messages: messagesOf(db, id) };
}

/**
 * The conversation's next message after `position` (-1: the first), with its position, or
 * null at the end: a long conversation is read a message at a time, never held whole.
 */
export function messageAfter(
  db: Db,
  conversationId: string,
  position: number,
): { message: StoredMessage; position: number } | null {
  const row = db
    .prepare(
      "SELECT id, position, message_json, created_at FROM conversation_messages WHERE conversation_id = ? AND position > ? ORDER BY position LIMIT 1",
    )
    .get(conversationId, position) as MessageRow | undefined;
  return row ? { message: messageOf(row), position: row.position } : null;
}

/** When the conversation last changed (any rename, settings change or message save), or null once deleted. */
export function conversationUpdatedAt(db: Db, ownerId: string, id: string): string | null {
  const row = findRow(db, ownerId, id);
  return row ? summaryOf(row).updatedAt : null;
}

/** Creates an empty conversation and returns it. */
export function createConversation(
  db: Db,
  ownerId: string,
  input: { title: string; settings: ConversationSettings },
  now = Date.now(),
): Conversation {
  const id = randomBytes(9).toString("base64url");
  db.prepare(
    "INSERT INTO conversations (id, owner_id, title, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(id, ownerId, input.title, JSON.stringify(input.settings), now, now);
  return getConversation(db, ownerId, id)!;
}

/** Renames and/or replaces the settings; null when there is no such conversation. */
export function updateConversation(
  db: Db,
  ownerId: string,
  id: string,
  change: { title?: string; settings?: ConversationSettings },
  now = Date.now(),
): ConversationHead | null {
  const row = findRow(db, ownerId, id);
  if (!row) return null;
  db.prepare(
    "UPDATE conversations SET title = ?, settings_json = ?, updated_at = ? WHERE id = ? AND owner_id = ?",
  ).run(
    change.title ?? row.title,
    change.settings ? JSON.stringify(change.settings) : row.settings_json,
    nextStamp(row, now),
    id,
    ownerId,
  );
  return getConversationHead(db, ownerId, id);
}

/** Deletes a conversation and its messages; false when there was none. */
export function deleteConversation(db: Db, ownerId: string, id: string): boolean {
  return (
    db.prepare("DELETE FROM conversations WHERE id = ? AND owner_id = ?").run(id, ownerId).changes >
    0
  );
}

export class UnknownMessageError extends Error {
  constructor(readonly messageId: string) {
    super(`Message ${messageId} is not in this conversation.`);
  }
}

/**
 * Saves messages in one transaction: with `after` given, later messages are dropped first
 * (null drops all); a message whose id is kept replaces it in place, others are appended.
 * Returns the messages saved, as stored, or null when there is no such conversation.
 */
export function saveMessages(
  db: Db,
  ownerId: string,
  conversationId: string,
  input: { after?: string | null; messages: StoredMessage[] },
  now = Date.now(),
): StoredMessage[] | null {
  return db.transaction(() => {
    const row = findRow(db, ownerId, conversationId);
    if (!row) return null;
    if (input.after !== undefined) {
      let keepThrough = -1;
      if (input.after !== null) {
        const anchor = db
          .prepare(
            "SELECT position FROM conversation_messages WHERE conversation_id = ? AND id = ?",
          )
          .get(conversationId, input.after) as { position: number } | undefined;
        if (!anchor) throw new UnknownMessageError(input.after);
        keepThrough = anchor.position;
      }
      db.prepare(
        "DELETE FROM conversation_messages WHERE conversation_id = ? AND position > ?",
      ).run(conversationId, keepThrough);
    }
    const existing = db.prepare(
      "SELECT position FROM conversation_messages WHERE conversation_id = ? AND id = ?",
    );
    const replace = db.prepare(
      "UPDATE conversation_messages SET role = ?, message_json = ? WHERE conversation_id = ? AND id = ?",
    );
    const insert = db.prepare(
      "INSERT INTO conversation_messages (conversation_id, id, position, role, message_json, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    let next =
      ((
        db
          .prepare(
            "SELECT MAX(position) AS last FROM conversation_messages WHERE conversation_id = ?",
          )
          .get(conversationId) as { last: number | null }
      ).last ?? -1) + 1;
    for (const message of input.messages) {
      const { createdAt: _createdAt, ...stored } = message;
      const json = JSON.stringify(stored);
      if (existing.get(conversationId, message.id))
        replace.run(message.role, json, conversationId, message.id);
      else insert.run(conversationId, message.id, next++, message.role, json, now);
    }
    db.prepare("UPDATE conversations SET updated_at = ? WHERE id = ?").run(
      nextStamp(row, now),
      conversationId,
    );
    const saved = db.prepare(
      "SELECT id, position, message_json, created_at FROM conversation_messages WHERE conversation_id = ? AND id = ?",
    );
    return input.messages.map((message) =>
      messageOf(saved.get(conversationId, message.id) as MessageRow),
    );
  })();
}
