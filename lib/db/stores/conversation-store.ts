import { randomBytes } from "node:crypto";
import type {
  Conversation,
  ConversationHead,
  ConversationSearchResult,
  ConversationSettings,
  ConversationSummary,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import { DEFAULT_TITLE, searchTextOf, titleFromPrompt } from "@/lib/studio/message-text";
import type { SqlDatabase, SqlExecutor, SqlTransaction } from "../sql-database";
import {
  ConversationIdTakenError,
  TurnConflictError,
  UnknownMessageError,
} from "./conversation-errors";
import {
  CONVERSATION_COLUMNS,
  headOf,
  MESSAGE_COLUMNS,
  messageOf,
  nextStamp,
  storedJson,
  summaryOf,
  type ConversationRow,
  type MessageRow,
} from "./conversation-rows";
import { searchConversations } from "./conversation-search";
import { admitWithinQuota, type QuotaAdmission } from "./quota-admission";

/**
 * Every query of the studio's conversations (migrations 3, 8, 9 and 12), in one store. A
 * conversation is a tree of messages (`parent_id`); each message remembers the reply shown
 * below it (`selected_child_id`) and the conversation its first message shown
 * (`selected_root_id`). Answers the server is generating carry a lease (`generating_until`)
 * their runner renews; one whose lease ran out was interrupted. A page on another instance
 * following one marks it (`followed_until`), so its runner writes progress promptly, and the
 * instances tell each other of such changes (signalAnswer: PostgreSQL's NOTIFY). Deleted
 * conversations are kept for a while (`deleted_at`) so a delete can be undone. Every query is
 * scoped by owner, so one caller can never read or change another's conversation, nor learn
 * which ids others use: an id is the owner's own (two owners may each have conversation `x`),
 * and the row's key (`internal_id`, what messages refer to) never leaves this store. Rows and
 * their API shapes are conversation-rows.ts, full-text search conversation-search.ts, the
 * refusals conversation-errors.ts. Long for a reason: one store per resource
 * (ARCHITECTURE.md), so every write to these tables, a turn's included, is read in one place
 * with its transaction.
 */

/** What an answer's runner learns each time it looks: a stop asked, a follower elsewhere. */
export interface AnswerRunState {
  stopRequested: boolean;
  /** Until when a page on another instance follows the answer (0: none). */
  followedUntil: number;
}

type RunStateRow = { stop_requested: number; followed_until: number | null };

function runStateOf(row: RunStateRow | undefined): AnswerRunState | null {
  return row
    ? {
        stopRequested: Number(row.stop_requested) === 1,
        followedUntil: Number(row.followed_until ?? 0),
      }
    : null;
}

/** What an instance tells the others about an answer (signalAnswer). */
export type AnswerSignal = "followed" | "stop" | "progress";

export interface AnswerSignalPayload {
  ownerId: string;
  conversationId: string;
  answerId: string;
  signal: AnswerSignal;
}

const ANSWER_SIGNALS_CHANNEL = "genstudio_answers";
const ANSWER_SIGNALS: readonly string[] = ["followed", "stop", "progress"];

/** A signal as another instance sent it, or null for anything else on the channel. */
function answerSignalOf(text: string): AnswerSignalPayload | null {
  try {
    const value = JSON.parse(text) as Partial<AnswerSignalPayload>;
    return typeof value.ownerId === "string" &&
      typeof value.conversationId === "string" &&
      typeof value.answerId === "string" &&
      typeof value.signal === "string" &&
      ANSWER_SIGNALS.includes(value.signal)
      ? (value as AnswerSignalPayload)
      : null;
  } catch {
    return null;
  }
}

/** The lock a write to one owner's conversation holds (its transaction's serialize key). */
function conversationLock(ownerId: string, id: string): string {
  return JSON.stringify(["conversation", ownerId, id]);
}

/**
 * The key of the owner's conversation by its id, as a subquery taking (owner_id, id): what
 * the message queries of callers that hold no row yet compare with.
 */
const INTERNAL_ID = "(SELECT internal_id FROM conversations WHERE owner_id = ? AND id = ?)";

/** How long a deleted conversation can still be brought back. */
export const UNDO_DELETE_MS = 10 * 60 * 1000;

export interface BeginTurnInput {
  parentId: string | null;
  prompt?: StoredMessage;
  answer: StoredMessage;
  /** Until when the answer's runner holds it (renewed as it writes). */
  leaseUntil: number;
  /** Create the conversation under this title (or one made from the prompt) when it does not exist. */
  create?: { title?: string; settings: ConversationSettings };
  /** The owner's conversation quota, checked with the write. */
  admission?: QuotaAdmission;
}

export interface BeginTurnResult {
  prompt?: StoredMessage;
  answer: StoredMessage;
  /** The messages the answer follows, first to prompt: the history of its request. */
  history: StoredMessage[];
  /** False when the turn existed already (the same send again): nothing was written. */
  created: boolean;
  title: string;
  /** The conversation's revision before this turn (a page holding another one reloads it). */
  previousUpdatedAt: string;
  updatedAt: string;
}

/** A conversation to import: its head and every message, parents before their replies. */
export interface ImportedConversation {
  title: string;
  settings: ConversationSettings;
  createdAt: number;
  updatedAt: number;
  selectedRootId?: string;
  messages: (StoredMessage & { parentId: string | null; selectedChildId?: string })[];
}

export class ConversationStore {
  constructor(private readonly database: SqlDatabase) {}

  private findRow(
    ownerId: string,
    id: string,
    executor: SqlExecutor = this.database,
  ): Promise<ConversationRow | undefined> {
    return executor.get<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = ? AND owner_id = ? AND deleted_at IS NULL`,
      [id, ownerId],
    );
  }

  private findMessageRow(
    internalId: string,
    id: string,
    executor: SqlExecutor = this.database,
  ): Promise<MessageRow | undefined> {
    return executor.get<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_internal_id = ? AND id = ?`,
      [internalId, id],
    );
  }

  private async touch(transaction: SqlExecutor, row: ConversationRow, now: number) {
    const stamp = nextStamp(row, now);
    await transaction.run("UPDATE conversations SET updated_at = ? WHERE internal_id = ?", [
      stamp,
      row.internal_id,
    ]);
    row.updated_at = stamp;
    return new Date(stamp).toISOString();
  }

  /**
   * The bytes the owner's conversations take as stored (titles, settings and every message of
   * every branch), the measure of the conversation quota. Deleted ones count until purged:
   * they are still stored, and can be restored.
   */
  async usedBytes(ownerId: string, executor: SqlExecutor = this.database): Promise<number> {
    const row = await executor.get<{
      head_bytes: number | null;
      message_bytes: number | null;
    }>(
      `SELECT
         (SELECT SUM(octet_length(title) + octet_length(settings_json)) FROM conversations WHERE owner_id = ?) AS head_bytes,
         (SELECT SUM(octet_length(m.message_json)) FROM conversation_messages AS m
            JOIN conversations AS c ON c.internal_id = m.conversation_internal_id WHERE c.owner_id = ?) AS message_bytes`,
      [ownerId, ownerId],
    );
    return Number(row?.head_bytes ?? 0) + Number(row?.message_bytes ?? 0);
  }

  /**
   * Admits a write against the owner's conversation quota, in the write's own transaction
   * (serialised per owner on every instance), before anything is written.
   */
  private admit(
    transaction: SqlTransaction,
    ownerId: string,
    admission: QuotaAdmission | undefined,
  ): Promise<void> {
    return admitWithinQuota(
      transaction,
      "conversations",
      ownerId,
      async () => ({ count: 0, bytes: await this.usedBytes(ownerId, transaction) }),
      admission,
    );
  }

  /** The owner's conversations, most recently updated first. */
  async list(ownerId: string, limit = 200): Promise<ConversationSummary[]> {
    // Ties on updated_at: the later created first.
    const rows = await this.database.all<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE owner_id = ? AND deleted_at IS NULL ORDER BY updated_at DESC, created_at DESC, id DESC LIMIT ?`,
      [ownerId, limit],
    );
    return rows.map(summaryOf);
  }

  /**
   * Conversations whose title or any message (of any branch) matches `text`, most recently
   * updated first, each with a passage of its newest matching message, the words marked.
   */
  search(ownerId: string, text: string, limit = 50): Promise<ConversationSearchResult[]> {
    return searchConversations(this.database, ownerId, text, limit);
  }

  /** A conversation without its messages, or null when the owner has none by that id. */
  async getHead(ownerId: string, id: string): Promise<ConversationHead | null> {
    const row = await this.findRow(ownerId, id);
    return row ? headOf(row) : null;
  }

  /** One conversation with every message of every branch, oldest first, or null when the owner has none by that id. */
  async get(ownerId: string, id: string): Promise<Conversation | null> {
    const row = await this.findRow(ownerId, id);
    if (!row) return null;
    const now = Date.now();
    const messages = await this.database.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_internal_id = ? ORDER BY sequence`,
      [row.internal_id],
    );
    return { ...headOf(row), messages: messages.map((message) => messageOf(message, now)) };
  }

  /**
   * The conversation's next message after `sequence` (0: the first), with its sequence, or null
   * at the end: a long conversation is read a message at a time, never held whole.
   */
  async messageAfter(
    ownerId: string,
    conversationId: string,
    sequence: number,
  ): Promise<{ message: StoredMessage; sequence: number } | null> {
    const row = await this.database.get<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_internal_id = ${INTERNAL_ID} AND sequence > ? ORDER BY sequence LIMIT 1`,
      [ownerId, conversationId, sequence],
    );
    return row ? { message: messageOf(row), sequence: Number(row.sequence) } : null;
  }

  /** When the conversation last changed (any rename, settings change or message save), or null once deleted. */
  async updatedAt(ownerId: string, id: string): Promise<string | null> {
    const row = await this.findRow(ownerId, id);
    return row ? summaryOf(row).updatedAt : null;
  }

  private async insertConversation(
    transaction: SqlExecutor,
    ownerId: string,
    input: { id?: string; title: string; settings: ConversationSettings },
    now: number,
  ): Promise<ConversationRow> {
    const id = input.id ?? randomBytes(9).toString("base64url");
    // Only the owner's own conversations (a deleted one still within its undo window) hold an id.
    const taken = await transaction.get(
      "SELECT 1 AS taken FROM conversations WHERE owner_id = ? AND id = ?",
      [ownerId, id],
    );
    if (taken) throw new ConversationIdTakenError(id);
    await transaction.run(
      "INSERT INTO conversations (internal_id, id, owner_id, title, settings_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [
        randomBytes(16).toString("base64url"),
        id,
        ownerId,
        input.title,
        JSON.stringify(input.settings),
        now,
        now,
      ],
    );
    return (await this.findRow(ownerId, id, transaction))!;
  }

  /**
   * Creates an empty conversation and returns it. With an id the browser chose, creating it
   * again returns the one that exists (a send retried after a lost answer makes one conversation).
   */
  async create(
    ownerId: string,
    input: {
      id?: string;
      title: string;
      settings: ConversationSettings;
      admission?: QuotaAdmission;
    },
    now = Date.now(),
  ): Promise<Conversation> {
    const row = await this.database.transaction(async (transaction) => {
      if (input.id) {
        await transaction.serialize(conversationLock(ownerId, input.id));
        const existing = await this.findRow(ownerId, input.id, transaction);
        if (existing) return existing;
      }
      await this.admit(transaction, ownerId, input.admission);
      return this.insertConversation(transaction, ownerId, input, now);
    });
    return (await this.get(ownerId, row.id))!;
  }

  /** Renames and/or replaces the settings; null when there is no such conversation. */
  async update(
    ownerId: string,
    id: string,
    change: { title?: string; settings?: ConversationSettings; admission?: QuotaAdmission },
    now = Date.now(),
  ): Promise<ConversationHead | null> {
    const updated = await this.database.transaction(async (transaction) => {
      await transaction.serialize(conversationLock(ownerId, id));
      const row = await this.findRow(ownerId, id, transaction);
      if (!row) return false;
      await this.admit(transaction, ownerId, change.admission);
      await transaction.run(
        "UPDATE conversations SET title = ?, settings_json = ?, updated_at = ? WHERE internal_id = ?",
        [
          change.title ?? row.title,
          change.settings ? JSON.stringify(change.settings) : row.settings_json,
          nextStamp(row, now),
          row.internal_id,
        ],
      );
      return true;
    });
    return updated ? this.getHead(ownerId, id) : null;
  }

  /**
   * Deletes a conversation, undoably for UNDO_DELETE_MS: it disappears at once from every read,
   * and is purged with its messages once the undo window is over. False when there was none.
   */
  async delete(ownerId: string, id: string, now = Date.now()): Promise<boolean> {
    await this.purgeDeleted(now - UNDO_DELETE_MS);
    const result = await this.database.run(
      "UPDATE conversations SET deleted_at = ? WHERE id = ? AND owner_id = ? AND deleted_at IS NULL",
      [now, id, ownerId],
    );
    return result.changes > 0;
  }

  /** Undoes a delete within its window; the conversation's head, or null when it cannot be brought back. */
  async restore(ownerId: string, id: string, now = Date.now()): Promise<ConversationHead | null> {
    const result = await this.database.run(
      "UPDATE conversations SET deleted_at = NULL WHERE id = ? AND owner_id = ? AND deleted_at IS NOT NULL AND deleted_at > ?",
      [id, ownerId, now - UNDO_DELETE_MS],
    );
    return result.changes ? this.getHead(ownerId, id) : null;
  }

  /** Removes for good the conversations deleted at or before `before` (their messages go with them). */
  async purgeDeleted(before: number): Promise<number> {
    const result = await this.database.run(
      "DELETE FROM conversations WHERE deleted_at IS NOT NULL AND deleted_at <= ?",
      [before],
    );
    return result.changes;
  }

  private async insertMessage(
    transaction: SqlExecutor,
    internalId: string,
    parentId: string | null,
    message: StoredMessage,
    now: number,
    generatingUntil: number | null = null,
  ): Promise<void> {
    await transaction.run(
      "INSERT INTO conversation_messages (conversation_internal_id, id, parent_id, role, message_json, search_text, generating_until, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      [
        internalId,
        message.id,
        parentId,
        message.role,
        storedJson(message),
        generatingUntil === null ? searchTextOf(message) : "",
        generatingUntil,
        now,
      ],
    );
    await this.select(transaction, internalId, parentId, message.id);
  }

  /** Makes `messageId` the reply shown below `parentId` (or the first message shown). */
  private async select(
    transaction: SqlExecutor,
    internalId: string,
    parentId: string | null,
    messageId: string,
  ): Promise<void> {
    if (parentId === null)
      await transaction.run("UPDATE conversations SET selected_root_id = ? WHERE internal_id = ?", [
        messageId,
        internalId,
      ]);
    else
      await transaction.run(
        "UPDATE conversation_messages SET selected_child_id = ? WHERE conversation_internal_id = ? AND id = ?",
        [messageId, internalId, parentId],
      );
  }

  /** The ids of the branch shown, first to last (following each chosen reply). */
  private async branchIds(
    conversation: ConversationRow,
    executor: SqlExecutor = this.database,
  ): Promise<string[]> {
    type Row = { id: string; selected_child_id: string | null };
    const newestReply = (parentId: string | null) =>
      executor.get<Row>(
        `SELECT id, selected_child_id FROM conversation_messages WHERE conversation_internal_id = ? AND ${parentId === null ? "parent_id IS NULL" : "parent_id = ?"} ORDER BY sequence DESC LIMIT 1`,
        parentId === null ? [conversation.internal_id] : [conversation.internal_id, parentId],
      );
    const byId = (id: string) =>
      executor.get<Row>(
        "SELECT id, selected_child_id FROM conversation_messages WHERE conversation_internal_id = ? AND id = ?",
        [conversation.internal_id, id],
      );
    let current =
      (conversation.selected_root_id ? await byId(conversation.selected_root_id) : undefined) ??
      (await newestReply(null));
    const ids: string[] = [];
    const seen = new Set<string>();
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      ids.push(current.id);
      current =
        (current.selected_child_id ? await byId(current.selected_child_id) : undefined) ??
        (await newestReply(current.id));
    }
    return ids;
  }

  /** The messages of the branch shown, first to last (an export to read). Null when there is no such conversation. */
  async currentBranch(ownerId: string, conversationId: string): Promise<StoredMessage[] | null> {
    const row = await this.findRow(ownerId, conversationId);
    if (!row) return null;
    const now = Date.now();
    const messages: StoredMessage[] = [];
    for (const id of await this.branchIds(row)) {
      const message = await this.findMessageRow(row.internal_id, id);
      if (message) messages.push(messageOf(message, now));
    }
    return messages;
  }

  /**
   * Saves messages in one transaction. A message whose id exists replaces its content in place;
   * the others are added one after another, the first under `after` (null: as a first message;
   * absent: after the end of the branch shown), each becoming the reply shown. Nothing is
   * removed. Returns the messages saved, as stored, or null when there is no such conversation.
   */
  async saveMessages(
    ownerId: string,
    conversationId: string,
    input: { after?: string | null; messages: StoredMessage[]; admission?: QuotaAdmission },
    now = Date.now(),
  ): Promise<StoredMessage[] | null> {
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(conversationLock(ownerId, conversationId));
      const row = await this.findRow(ownerId, conversationId, transaction);
      if (!row) return null;
      const internalId = row.internal_id;
      await this.admit(transaction, ownerId, input.admission);
      let parentId: string | null;
      if (input.after === undefined)
        parentId = (await this.branchIds(row, transaction)).at(-1) ?? null;
      else if (input.after === null) parentId = null;
      else {
        if (!(await this.findMessageRow(internalId, input.after, transaction)))
          throw new UnknownMessageError(input.after);
        parentId = input.after;
      }
      for (const message of input.messages) {
        const replaced = await transaction.run(
          "UPDATE conversation_messages SET role = ?, message_json = ?, search_text = ? WHERE conversation_internal_id = ? AND id = ?",
          [message.role, storedJson(message), searchTextOf(message), internalId, message.id],
        );
        if (replaced.changes === 0) {
          await this.insertMessage(transaction, internalId, parentId, message, now);
          parentId = message.id;
        }
      }
      await this.touch(transaction, row, now);
      const saved: StoredMessage[] = [];
      for (const message of input.messages)
        saved.push(messageOf((await this.findMessageRow(internalId, message.id, transaction))!));
      return saved;
    });
  }

  /**
   * Shows `messageId` instead of its siblings: its branch, down to where it was left, becomes
   * the one shown. False when there is no such message; null when there is no such conversation.
   */
  async selectMessage(
    ownerId: string,
    conversationId: string,
    messageId: string,
    now = Date.now(),
  ): Promise<boolean | null> {
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(conversationLock(ownerId, conversationId));
      const row = await this.findRow(ownerId, conversationId, transaction);
      if (!row) return null;
      const message = await this.findMessageRow(row.internal_id, messageId, transaction);
      if (!message) return false;
      await this.select(transaction, row.internal_id, message.parent_id, messageId);
      await this.touch(transaction, row, now);
      return true;
    });
  }

  /** The messages from the first one down to `messageId`, in order. */
  private pathRows(
    executor: SqlExecutor,
    internalId: string,
    messageId: string,
  ): Promise<MessageRow[]> {
    const columns = MESSAGE_COLUMNS.split(", ")
      .map((column) => `m.${column}`)
      .join(", ");
    return executor.all<MessageRow>(
      `WITH RECURSIVE path (id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM conversation_messages WHERE conversation_internal_id = ? AND id = ?
         UNION ALL
         SELECT m.id, m.parent_id, path.depth + 1 FROM conversation_messages AS m
         JOIN path ON m.conversation_internal_id = ? AND m.id = path.parent_id
         WHERE path.depth < 1000000
       )
       SELECT ${columns}
       FROM path JOIN conversation_messages AS m ON m.conversation_internal_id = ? AND m.id = path.id
       ORDER BY path.depth DESC`,
      [internalId, messageId, internalId, internalId],
    );
  }

  /**
   * Adds a turn in one transaction: the prompt (unless this regenerates the answer to
   * `parentId`) and the answer the server is about to generate, both shown. The same turn sent
   * again (same answer id) changes nothing and returns what is stored. Null when there is no
   * such conversation and `create` was not given.
   */
  async beginTurn(
    ownerId: string,
    conversationId: string,
    input: BeginTurnInput,
    now = Date.now(),
  ): Promise<BeginTurnResult | null> {
    return this.database.transaction(async (transaction): Promise<BeginTurnResult | null> => {
      await transaction.serialize(conversationLock(ownerId, conversationId));
      let row = await this.findRow(ownerId, conversationId, transaction);
      const repeated =
        row !== undefined &&
        (await this.findMessageRow(row.internal_id, input.answer.id, transaction)) !== undefined;
      // The same turn sent again writes nothing, so it needs no room.
      if (!repeated) await this.admit(transaction, ownerId, input.admission);
      if (!row && input.create) {
        const title =
          input.create.title ??
          (input.prompt ? titleFromPrompt(input.prompt.content.parts) : DEFAULT_TITLE);
        row = await this.insertConversation(
          transaction,
          ownerId,
          { id: conversationId, title, settings: input.create.settings },
          now - 1,
        );
      }
      if (!row) return null;
      const internalId = row.internal_id;
      const previousUpdatedAt = summaryOf(row).updatedAt;
      const existing = await this.findMessageRow(internalId, input.answer.id, transaction);
      if (existing) return this.repeatedTurn(transaction, row, existing, previousUpdatedAt, now);
      if (
        input.parentId !== null &&
        !(await this.findMessageRow(internalId, input.parentId, transaction))
      )
        throw new UnknownMessageError(input.parentId);
      const promptId = await this.placePrompt(transaction, row, input, now);
      await this.insertMessage(
        transaction,
        internalId,
        promptId,
        input.answer,
        now,
        input.leaseUntil,
      );
      const updatedAt = await this.touch(transaction, row, now);
      const history = (await this.pathRows(transaction, internalId, promptId)).map((message) =>
        messageOf(message, now),
      );
      const answer = (await this.findMessageRow(internalId, input.answer.id, transaction))!;
      return {
        prompt: history[history.length - 1],
        answer: messageOf(answer, now),
        history,
        created: true,
        title: row.title,
        previousUpdatedAt,
        updatedAt,
      };
    });
  }

  /** The same turn sent again (its answer is stored): what is stored, nothing written. */
  private async repeatedTurn(
    transaction: SqlExecutor,
    row: ConversationRow,
    existing: MessageRow,
    previousUpdatedAt: string,
    now: number,
  ): Promise<BeginTurnResult> {
    const promptRow = existing.parent_id
      ? await this.findMessageRow(row.internal_id, existing.parent_id, transaction)
      : undefined;
    return {
      ...(promptRow ? { prompt: messageOf(promptRow, now) } : {}),
      answer: messageOf(existing, now),
      history: [],
      created: false,
      title: row.title,
      previousUpdatedAt,
      updatedAt: previousUpdatedAt,
    };
  }

  /**
   * The prompt a new answer follows, and its id: the turn's prompt, stored under `parentId`
   * unless already there (a first prompt also names an untitled conversation), or for a
   * regeneration the prompt `parentId` already is.
   */
  private async placePrompt(
    transaction: SqlExecutor,
    row: ConversationRow,
    input: BeginTurnInput,
    now: number,
  ): Promise<string> {
    const internalId = row.internal_id;
    if (!input.prompt) {
      if (input.parentId === null)
        throw new TurnConflictError("A regeneration needs the prompt it answers (parentId).");
      const prompt = (await this.findMessageRow(internalId, input.parentId, transaction))!;
      if ((JSON.parse(prompt.message_json) as StoredMessage).role !== "user")
        throw new TurnConflictError(`Message ${input.parentId} is not a prompt.`);
      return input.parentId;
    }
    const stored = await this.findMessageRow(internalId, input.prompt.id, transaction);
    if (stored && stored.parent_id !== input.parentId)
      throw new TurnConflictError(
        `Message ${input.prompt.id} already exists elsewhere in this conversation.`,
      );
    const first = await transaction.get(
      "SELECT 1 AS found FROM conversation_messages WHERE conversation_internal_id = ? LIMIT 1",
      [internalId],
    );
    if (!stored)
      await this.insertMessage(transaction, internalId, input.parentId, input.prompt, now);
    if (!first && row.title === DEFAULT_TITLE) {
      row.title = titleFromPrompt(input.prompt.content.parts);
      await transaction.run("UPDATE conversations SET title = ? WHERE internal_id = ?", [
        row.title,
        internalId,
      ]);
    }
    return input.prompt.id;
  }

  /**
   * Writes what an answer being generated holds so far and extends its lease. Returns what its
   * runner must know (a stop asked by any instance, a follower elsewhere), or null when the
   * answer is gone (its conversation deleted) or no longer generated.
   */
  async saveAnswerProgress(
    ownerId: string,
    conversationId: string,
    answer: StoredMessage,
    leaseUntil: number,
  ): Promise<AnswerRunState | null> {
    const row = await this.database.get<RunStateRow>(
      `UPDATE conversation_messages SET message_json = ?, generating_until = ? WHERE conversation_internal_id = ${INTERNAL_ID} AND id = ? AND generating_until IS NOT NULL RETURNING stop_requested, followed_until`,
      [storedJson(answer), leaseUntil, ownerId, conversationId, answer.id],
    );
    return runStateOf(row);
  }

  /** Extends an answer's lease without writing its text; the answer's state as saveAnswerProgress. */
  async renewAnswerLease(
    ownerId: string,
    conversationId: string,
    answerId: string,
    leaseUntil: number,
  ): Promise<AnswerRunState | null> {
    const row = await this.database.get<RunStateRow>(
      `UPDATE conversation_messages SET generating_until = ? WHERE conversation_internal_id = ${INTERNAL_ID} AND id = ? AND generating_until IS NOT NULL RETURNING stop_requested, followed_until`,
      [leaseUntil, ownerId, conversationId, answerId],
    );
    return runStateOf(row);
  }

  /** The state of an answer being generated as saveAnswerProgress returns it, read without a write. */
  async answerRunState(
    ownerId: string,
    conversationId: string,
    answerId: string,
  ): Promise<AnswerRunState | null> {
    const row = await this.database.get<RunStateRow>(
      `SELECT stop_requested, followed_until FROM conversation_messages WHERE conversation_internal_id = ${INTERNAL_ID} AND id = ? AND generating_until IS NOT NULL`,
      [ownerId, conversationId, answerId],
    );
    return runStateOf(row);
  }

  /**
   * Marks an answer being generated as followed from another instance until `until` (never
   * shortening a mark another follower made): its runner then writes progress within a fraction
   * of a second. A follower renews its mark while it follows; one that goes away lets it run out.
   */
  async followAnswer(
    ownerId: string,
    conversationId: string,
    answerId: string,
    until: number,
  ): Promise<void> {
    await this.database.run(
      `UPDATE conversation_messages SET followed_until = ?
       WHERE conversation_internal_id =
           (SELECT internal_id FROM conversations WHERE owner_id = ? AND id = ? AND deleted_at IS NULL)
         AND id = ? AND generating_until IS NOT NULL
         AND (followed_until IS NULL OR followed_until < ?)`,
      [until, ownerId, conversationId, answerId, until],
    );
  }

  /**
   * The lease of one answer as stored (null once it is no longer generated), or null when the
   * owner has no such answer. Each write of progress moves the lease on, so a follower reads the
   * whole answer again only when this changed (or ran out): a cheap look, however long the answer.
   */
  async answerLease(
    ownerId: string,
    conversationId: string,
    answerId: string,
  ): Promise<{ generatingUntil: number | null } | null> {
    const row = await this.database.get<{ generating_until: number | null }>(
      `SELECT m.generating_until FROM conversation_messages AS m
       JOIN conversations AS c ON c.internal_id = m.conversation_internal_id
       WHERE c.owner_id = ? AND c.id = ? AND c.deleted_at IS NULL AND m.id = ?`,
      [ownerId, conversationId, answerId],
    );
    if (!row) return null;
    return { generatingUntil: row.generating_until === null ? null : Number(row.generating_until) };
  }

  /**
   * Tells every instance listening (PostgreSQL's NOTIFY; SQLite has no other instance to tell)
   * that an answer was followed, asked to stop or written: the instance generating or following
   * it looks at once instead of at its next tick. A hint only: the row stays the truth, and every
   * reader also looks on its own.
   */
  async signalAnswer(
    ownerId: string,
    conversationId: string,
    answerId: string,
    signal: AnswerSignal,
  ): Promise<void> {
    if (this.database.dialect !== "postgres") return;
    const payload: AnswerSignalPayload = { ownerId, conversationId, answerId, signal };
    await this.database.get("SELECT pg_notify(?, ?)", [
      ANSWER_SIGNALS_CHANNEL,
      JSON.stringify(payload),
    ]);
  }

  /** Calls `listener` with each answer signal any instance sends; returns the unsubscribe. */
  onAnswerSignal(listener: (payload: AnswerSignalPayload) => void): () => void {
    return this.database.listen(ANSWER_SIGNALS_CHANNEL, (text) => {
      const payload = answerSignalOf(text);
      if (payload) listener(payload);
    });
  }

  /** Stores an answer's final state: no longer generated, searchable. Null when it is gone. */
  async finishAnswer(
    ownerId: string,
    conversationId: string,
    answer: StoredMessage,
    now = Date.now(),
  ): Promise<{ message: StoredMessage; updatedAt: string; previousUpdatedAt: string } | null> {
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(conversationLock(ownerId, conversationId));
      // Deleted or not: an answer finishing in a conversation deleted undoably is kept.
      const row = await transaction.get<ConversationRow>(
        `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE owner_id = ? AND id = ?`,
        [ownerId, conversationId],
      );
      if (!row) return null;
      const changed = await transaction.run(
        "UPDATE conversation_messages SET message_json = ?, search_text = ?, generating_until = NULL, stop_requested = 0 WHERE conversation_internal_id = ? AND id = ? AND generating_until IS NOT NULL",
        [storedJson(answer), searchTextOf(answer), row.internal_id, answer.id],
      );
      if (!changed.changes) return null;
      const previousUpdatedAt = summaryOf(row).updatedAt;
      const updatedAt = await this.touch(transaction, row, now);
      const stored = (await this.findMessageRow(row.internal_id, answer.id, transaction))!;
      return { message: messageOf(stored, now), updatedAt, previousUpdatedAt };
    });
  }

  /** Asks the runner of an answer to stop (it reads the flag as it writes). False when it is not being generated. */
  async requestAnswerStop(
    ownerId: string,
    conversationId: string,
    answerId: string,
  ): Promise<boolean | null> {
    const row = await this.findRow(ownerId, conversationId);
    if (!row) return null;
    const result = await this.database.run(
      "UPDATE conversation_messages SET stop_requested = 1 WHERE conversation_internal_id = ? AND id = ? AND generating_until IS NOT NULL",
      [row.internal_id, answerId],
    );
    return result.changes > 0;
  }

  /** One message as stored now (an answer being followed from another instance), or null. */
  async readMessage(
    ownerId: string,
    conversationId: string,
    messageId: string,
    now = Date.now(),
  ): Promise<StoredMessage | null> {
    const row = await this.findRow(ownerId, conversationId);
    const message = row && (await this.findMessageRow(row.internal_id, messageId));
    return message ? messageOf(message, now) : null;
  }

  /**
   * Marks the conversation's answers whose lease ran out as interrupted, for good (their
   * runner went away): the partial text stays, searchable. Returns how many were marked.
   */
  async finishInterruptedAnswers(
    ownerId: string,
    conversationId: string,
    now = Date.now(),
  ): Promise<number> {
    const conversation = await this.findRow(ownerId, conversationId);
    if (!conversation) return 0;
    const rows = await this.database.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM conversation_messages WHERE conversation_internal_id = ? AND generating_until IS NOT NULL AND generating_until <= ?`,
      [conversation.internal_id, now],
    );
    if (!rows.length) return 0;
    await this.database.transaction(async (transaction) => {
      for (const row of rows) {
        const message = messageOf(row, now);
        // Only if no runner renewed the lease meanwhile.
        await transaction.run(
          "UPDATE conversation_messages SET message_json = ?, search_text = ?, generating_until = NULL, stop_requested = 0 WHERE conversation_internal_id = ? AND id = ? AND generating_until = ?",
          [
            storedJson({ ...message, interrupted: true }),
            searchTextOf(message),
            conversation.internal_id,
            row.id,
            row.generating_until,
          ],
        );
      }
    });
    return rows.length;
  }

  /** Stores imported conversations, all or none, each under a new id; returns the new ids in order. */
  async importConversations(
    ownerId: string,
    conversations: readonly ImportedConversation[],
    admission?: QuotaAdmission,
  ): Promise<string[]> {
    return this.database.transaction(async (transaction: SqlTransaction) => {
      await this.admit(transaction, ownerId, admission);
      const ids: string[] = [];
      for (const conversation of conversations) {
        const row = await this.insertConversation(
          transaction,
          ownerId,
          { title: conversation.title, settings: conversation.settings },
          conversation.createdAt,
        );
        for (const message of conversation.messages) {
          const created = message.createdAt ? Date.parse(message.createdAt) : NaN;
          await this.insertMessage(
            transaction,
            row.internal_id,
            message.parentId,
            message,
            Number.isFinite(created) ? created : conversation.createdAt,
          );
        }
        // The branches shown are the ones shown when it was exported.
        for (const message of conversation.messages)
          if (message.selectedChildId)
            await this.select(transaction, row.internal_id, message.id, message.selectedChildId);
        if (conversation.selectedRootId)
          await this.select(transaction, row.internal_id, null, conversation.selectedRootId);
        await transaction.run("UPDATE conversations SET updated_at = ? WHERE internal_id = ?", [
          Math.max(conversation.updatedAt, conversation.createdAt),
          row.internal_id,
        ]);
        ids.push(row.id);
      }
      return ids;
    });
  }

  /** The ids of the owner's conversations, most recently updated first (an export of all of them). */
  async ids(ownerId: string): Promise<string[]> {
    const rows = await this.database.all<{ id: string }>(
      "SELECT id FROM conversations WHERE owner_id = ? AND deleted_at IS NULL ORDER BY updated_at DESC, created_at DESC, id DESC",
      [ownerId],
    );
    return rows.map((row) => row.id);
  }
}
