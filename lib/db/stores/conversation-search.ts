import {
  SEARCH_MARK_END,
  SEARCH_MARK_START,
  type ConversationSearchResult,
} from "@/lib/studio/conversation-schema";
import type { SqlDatabase } from "../sql-database";
import { CONVERSATION_COLUMNS, summaryOf, type ConversationRow } from "./conversation-rows";
import { markedPassage } from "./search-passage";

/**
 * Full-text search of the owner's conversations: SQLite FTS5 over `search_text` (the
 * `conversation_search` index, kept by triggers); PostgreSQL a tsvector of the same column
 * (`search_vector`, GIN-indexed). Titles match by substring.
 */

/** Matches read at most, newest first, before a search stops looking for more conversations. */
const SEARCH_SCAN_LIMIT = 2000;

/** The words of what a person typed (letters and digits; everything else is a separator). */
export function searchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/**
 * The FTS5 query for those words: each quoted (nothing typed is FTS syntax), all required,
 * the last one a prefix since the person may still be typing it.
 */
export function fullTextQuery(text: string): string | null {
  const words = searchWords(text);
  if (!words.length) return null;
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? "*" : ""}`).join(" ");
}

/** The same for PostgreSQL's to_tsquery: `word & word:*` (words are letters and digits only). */
function tsQuery(text: string): string | null {
  const words = searchWords(text).map((word) => word.toLowerCase());
  if (!words.length) return null;
  return words.map((word, index) => `${word}${index === words.length - 1 ? ":*" : ""}`).join(" & ");
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Conversations whose title or any message (of any branch) matches `text`, most recently
 * updated first, each with a passage of its newest matching message, the words marked.
 */
export async function searchConversations(
  database: SqlDatabase,
  ownerId: string,
  text: string,
  limit: number,
): Promise<ConversationSearchResult[]> {
  const found = new Map<string, { row?: ConversationRow; sequence?: number }>();
  // Newest matches first, a bounded number: the cost follows the page, not the matches.
  const matches = await matchingMessages(database, ownerId, text);
  for (const match of matches) {
    if (found.size >= limit) break;
    if (!found.has(match.conversation_id))
      found.set(match.conversation_id, { sequence: Number(match.sequence) });
  }
  const trimmed = text.trim();
  if (trimmed) {
    const like = database.dialect === "sqlite" ? "LIKE" : "ILIKE";
    const titled = await database.all<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE owner_id = ? AND deleted_at IS NULL AND title ${like} ? ESCAPE '\\' ORDER BY updated_at DESC LIMIT ?`,
      [ownerId, `%${escapeLike(trimmed)}%`, limit],
    );
    for (const row of titled) found.set(row.id, { ...found.get(row.id), row });
  }
  const results: (ConversationSearchResult & { order: number })[] = [];
  for (const [id, entry] of found) {
    const row =
      entry.row ??
      (await database.get<ConversationRow>(
        `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE owner_id = ? AND id = ?`,
        [ownerId, id],
      ))!;
    const result: ConversationSearchResult & { order: number } = {
      ...summaryOf(row),
      order: Number(row.updated_at),
    };
    if (entry.sequence !== undefined) {
      const match = await passageOf(database, text, entry.sequence);
      if (match) result.match = match;
    }
    results.push(result);
  }
  return results
    .sort((first, second) => second.order - first.order)
    .slice(0, limit)
    .map(({ order: _order, ...result }) => result);
}

async function matchingMessages(
  database: SqlDatabase,
  ownerId: string,
  text: string,
): Promise<{ sequence: number; conversation_id: string }[]> {
  if (database.dialect === "sqlite") {
    const query = fullTextQuery(text);
    if (!query) return [];
    // FTS5 walks its rowids backwards without sorting, and stops at the limit.
    return database.all(
      `SELECT conversation_search.rowid AS sequence, c.id AS conversation_id
       FROM conversation_search
       JOIN conversation_messages AS m ON m.sequence = conversation_search.rowid
       JOIN conversations AS c ON c.internal_id = m.conversation_internal_id
       WHERE conversation_search MATCH ? AND c.owner_id = ? AND c.deleted_at IS NULL
       ORDER BY conversation_search.rowid DESC LIMIT ?`,
      [query, ownerId, SEARCH_SCAN_LIMIT],
    );
  }
  const query = tsQuery(text);
  if (!query) return [];
  return database.all(
    `SELECT m.sequence AS sequence, c.id AS conversation_id
     FROM conversation_messages AS m
     JOIN conversations AS c ON c.internal_id = m.conversation_internal_id
     WHERE m.search_vector @@ to_tsquery('simple', ?) AND c.owner_id = ? AND c.deleted_at IS NULL
     ORDER BY m.sequence DESC LIMIT ?`,
    [query, ownerId, SEARCH_SCAN_LIMIT],
  );
}

/** A passage of one matching message, the matched words between the search marks. */
async function passageOf(
  database: SqlDatabase,
  text: string,
  sequence: number,
): Promise<string | null> {
  if (database.dialect === "sqlite") {
    const query = fullTextQuery(text);
    if (!query) return null;
    const message = await database.get<{ search_text: string }>(
      "SELECT search_text FROM conversation_messages WHERE sequence = ?",
      [sequence],
    );
    const marked = markedPassage(message?.search_text ?? "", searchWords(text), {
      start: SEARCH_MARK_START,
      end: SEARCH_MARK_END,
    });
    if (marked) return marked;
    // A word the index folds otherwise than markedPassage: FTS5 finds the passage.
    // CAST: FTS5 applies `rowid = ?` only to an integer, and numbers may be bound as reals.
    const row = await database.get<{ passage: string }>(
      "SELECT snippet(conversation_search, 0, ?, ?, '…', 16) AS passage FROM conversation_search WHERE conversation_search MATCH ? AND rowid = CAST(? AS INTEGER)",
      [SEARCH_MARK_START, SEARCH_MARK_END, query, sequence],
    );
    return row?.passage || null;
  }
  const query = tsQuery(text);
  if (!query) return null;
  const row = await database.get<{ passage: string }>(
    `SELECT ts_headline('simple', search_text, to_tsquery('simple', ?), ?) AS passage
     FROM conversation_messages WHERE sequence = ?`,
    [
      query,
      `StartSel=${SEARCH_MARK_START}, StopSel=${SEARCH_MARK_END}, MaxWords=16, MinWords=6, ShortWord=0`,
      sequence,
    ],
  );
  return row?.passage || null;
}
