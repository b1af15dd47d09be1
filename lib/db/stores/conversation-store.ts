import { randomBytes } from "node:crypto";
import type {
  Conversation,
  ConversationHead,
  ConversationSettings,
  ConversationSummary,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import type { SqlDatabase, SqlExecutor } from "../sql-database";

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

const CONVERSATION_COLUMNS = "id, owner_id, title, settings_json, created_at, updated_at";
const MESSAGE_COLUMNS = "id, position, message_json, created_at";

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

function messageOf(row: MessageRow): StoredMessage {
  return {
    ...(JSON.parse(row.message_json) as StoredMessage),
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
  };
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

export class UnknownMessageError extends Error {
  override readonly name = "UnknownMessageError";
  constructor(readonly messageId: string) {
    super(`Message ${messageId} is not in this conversation.`);
  }
}

/**
 * By name, not `instanceof`: the stores are one per process (made by whichever route bundle
 * asked first), so their classes can come from another of Next's module graphs than the caller's.
 */
export function isUnknownMessageError(error: unknown): error is UnknownMessageError {
  return error instanceof Error && error.name === "UnknownMessageError";
}

export class ConversationStore {
  constructor(private readonly database: SqlDatabase) {}

  /** The owner's conversations, most recently updated first; `search` filters titles (case-insensitive). */
  async list(ownerId: string, search = "", limit = 200): Promise<ConversationSummary[]> {
    // Ties on updated_at: the later created first (SQLite's rowid is the insertion order).
    const order =
      this.database.dialect === "sqlite"
        ? "updated_at DESC, rowid DESC"
        : "updated_at DESC, created_at DESC, id DESC";
    const like = this.database.dialect === "sqlite" ? "LIKE" : "ILIKE";
    const rows = search.trim()
      ? await this.database.all<ConversationRow>(
          `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE owner_id = ? AND title ${like} ? ESCAPE '\\' ORDER BY ${order} LIMIT ?`,
          [ownerId, `%${escapeLike(search.trim())}%`, limit],
        )
      : await this.database.all<ConversationRow>(
          `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE owner_id = ? ORDER BY ${order} LIMIT ?`,
          [ownerId, limit],
        );
    return rows.map(summaryOf);
  }

  private findRow(
    ownerId: string,
    id: string,
    executor: SqlExecutor = this.database,
  ): Promise<ConversationRow | undefined> {
    return executor.get<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = ? AND owner_id = ?`,
      [id, ownerId],
    );
  }

  /** A conversation without its messages, or null when the owner has none by that id. */
  async getHead(ownerId: string, id: string): Promise<ConversationHead | null> {
    const row = await this.findRow(ownerId, id);
    return row ? headOf(row) : null;
  }

  /** One conversation with its messages in order, or null when the owner has none by that id. */
  async get(ownerId: string, id: string): Promise<Conversation | null> {
    const row = await this.findRow(ownerId, id);
    if (!row) return null;
    const messages = await this.database.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_id = ? ORDER BY position`,
      [id],
    );
    return { ...headOf(row), messages: messages.map(messageOf) };
  }

  /**
   * The conversation's next message after `position` (-1: the first), with its position, or
   * null at the end: a long conversation is read a message at a time, never held whole.
   */
  async messageAfter(
    conversationId: string,
    position: number,
  ): Promise<{ message: StoredMessage; position: number } | null> {
    const row = await this.database.get<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_id = ? AND position > ? ORDER BY position LIMIT 1`,
      [conversationId, position],
    );
    return row ? { message: messageOf(row), position: row.position } : null;
  }

  /** When the conversation last changed (any rename, settings change or message save), or null once deleted. */
  async updatedAt(ownerId: string, id: string): Promise<string | null> {
    const row = await this.findRow(ownerId, id);
    return row ? summaryOf(row).updatedAt : null;
  }

  /** Creates an empty conversation and returns it. */
  async create(
    ownerId: string,
    input: { title: string; settings: ConversationSettings },
    now = Date.now(),
  ): Promise<Conversation> {
    const id = randomBytes(9).toString("base64url");
    await this.database.run(
      `INSERT INTO conversations (${CONVERSATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
      [id, ownerId, input.title, JSON.stringify(input.settings), now, now],
    );
    return (await this.get(ownerId, id))!;
  }

  /** Renames and/or replaces the settings; null when there is no such conversation. */
  async update(
    ownerId: string,
    id: string,
    change: { title?: string; settings?: ConversationSettings },
    now = Date.now(),
  ): Promise<ConversationHead | null> {
    const updated = await this.database.transaction(async (transaction) => {
      await transaction.serialize(`conversation:${id}`);
      const row = await this.findRow(ownerId, id, transaction);
      if (!row) return false;
      await transaction.run(
        "UPDATE conversations SET title = ?, settings_json = ?, updated_at = ? WHERE id = ? AND owner_id = ?",
        [
          change.title ?? row.title,
          change.settings ? JSON.stringify(change.settings) : row.settings_json,
          nextStamp(row, now),
          id,
          ownerId,
        ],
      );
      return true;
    });
    return updated ? this.getHead(ownerId, id) : null;
  }

  /** Deletes a conversation and its messages; false when there was none. */
  async delete(ownerId: string, id: string): Promise<boolean> {
    const result = await this.database.run(
      "DELETE FROM conversations WHERE id = ? AND owner_id = ?",
      [id, ownerId],
    );
    return result.changes > 0;
  }

  /**
   * Saves messages in one transaction: with `after` given, later messages are dropped first
   * (null drops all); a message whose id is kept replaces it in place, others are appended.
   * Returns the messages saved, as stored, or null when there is no such conversation.
   */
  async saveMessages(
    ownerId: string,
    conversationId: string,
    input: { after?: string | null; messages: StoredMessage[] },
    now = Date.now(),
  ): Promise<StoredMessage[] | null> {
    return this.database.transaction(async (transaction) => {
      // Two writers of one conversation (two instances) take turns, so positions never collide.
      await transaction.serialize(`conversation:${conversationId}`);
      const row = await this.findRow(ownerId, conversationId, transaction);
      if (!row) return null;
      if (input.after !== undefined) {
        let keepThrough = -1;
        if (input.after !== null) {
          const anchor = await transaction.get<{ position: number }>(
            "SELECT position FROM conversation_messages WHERE conversation_id = ? AND id = ?",
            [conversationId, input.after],
          );
          if (!anchor) throw new UnknownMessageError(input.after);
          keepThrough = anchor.position;
        }
        await transaction.run(
          "DELETE FROM conversation_messages WHERE conversation_id = ? AND position > ?",
          [conversationId, keepThrough],
        );
      }
      const last = await transaction.get<{ last: number | null }>(
        "SELECT MAX(position) AS last FROM conversation_messages WHERE conversation_id = ?",
        [conversationId],
      );
      let next = (last?.last ?? -1) + 1;
      for (const message of input.messages) {
        const { createdAt: _createdAt, ...stored } = message;
        const json = JSON.stringify(stored);
        const replaced = await transaction.run(
          "UPDATE conversation_messages SET role = ?, message_json = ? WHERE conversation_id = ? AND id = ?",
          [message.role, json, conversationId, message.id],
        );
        if (replaced.changes === 0) {
          await transaction.run(
            "INSERT INTO conversation_messages (conversation_id, id, position, role, message_json, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [conversationId, message.id, next++, message.role, json, now],
          );
        }
      }
      await transaction.run("UPDATE conversations SET updated_at = ? WHERE id = ?", [
        nextStamp(row, now),
        conversationId,
      ]);
      const saved: StoredMessage[] = [];
      for (const message of input.messages) {
        const stored = await transaction.get<MessageRow>(
          `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_id = ? AND id = ?`,
          [conversationId, message.id],
        );
        saved.push(messageOf(stored!));
      }
      return saved;
    });
  }
}
