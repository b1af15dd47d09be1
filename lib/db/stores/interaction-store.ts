/**
 * Every statement of the local engine's interactions (migration 18): the `interactions` rows
 * and, in order, every event of each one's stream (`interaction_events`), so a stream can be
 * resumed from any event and followed from another instance. An interaction is run by one
 * instance at a time (a claim); its events are appended only in order, and it ends once (a
 * cancel, a delete or the end of its run, whichever comes first). Times are epoch milliseconds.
 * Long strings (a speech answer's audio) are kept beside the JSON that holds them, in pieces
 * (`interaction_pieces`, migration 23) written and read a statement at a time: see StoredJson.
 * Kept whole: its statements share the rows' event count and status, and each transaction
 * that moves them on is read best beside the others.
 */
import type { InteractionStatus } from "@/lib/gemini/interactions/types";
import type { SqlDatabase, SqlExecutor } from "../sql-database";

/** Statuses of an interaction that has not ended: it may still be run, cancelled, followed. */
export const ACTIVE_INTERACTION_STATUSES = ["queued", "in_progress"] as const;
const ACTIVE = `('queued', 'in_progress')`;

/**
 * A JSON value as stored: its text with its long strings left out, and where they go (`texts`,
 * JSON written by the engine's reader and writer of them; null when it has none). A long
 * string is kept as pieces of one `text_id` under its interaction (insertPieces, pieces).
 */
export interface StoredJson {
  json: string;
  texts: string | null;
}

/** A JSON text stored whole (no long strings kept apart). */
export function wholeJson(json: string): StoredJson {
  return { json, texts: null };
}

/** One piece of a long string: the `seq`th of string `textId`. */
export interface TextPiece {
  textId: string;
  seq: number;
  piece: string;
}

export interface InteractionRecord {
  id: string;
  ownerId: string;
  /** The interaction this one continues (`previous_interaction_id`). */
  previousId: string | null;
  /** The model's id (`gemini-2.5-flash`), or null when an agent answers. */
  model: string | null;
  agent: string | null;
  status: InteractionStatus;
  background: boolean;
  /** The canonical create request, JSON: what a run (or a run after a restart) reads. */
  requestJson: string;
  /** Its own input as generateContent contents, JSON: the turns continuations read. */
  inputContentsJson: string;
  /** What it answered as contents, JSON, once ended; null until then. */
  outputContents: StoredJson | null;
  /** Its steps, usage and error once ended, JSON; null until then. */
  result: StoredJson | null;
  /** The sampling seed of its run, so a run is repeatable. */
  seed: number;
  /** Runs started: a run that never finishes is not started again forever. */
  attempts: number;
  /** Events of its stream stored so far. */
  eventCount: number;
  createTime: number;
  updateTime: number;
}

/** How an interaction ends. */
export interface InteractionEnding {
  status: Exclude<InteractionStatus, "queued" | "in_progress">;
  result: StoredJson;
  outputContents: StoredJson;
}

/** Events to store: `from` is the position of the first, which must be the next in order. */
export interface EventBatch {
  from: number;
  events: StoredJson[];
}

interface InteractionRow {
  id: string;
  owner_id: string;
  previous_id: string | null;
  model: string | null;
  agent: string | null;
  status: InteractionStatus;
  background: number;
  request_json: string;
  input_contents_json: string;
  output_contents_json: string | null;
  output_contents_texts: string | null;
  result_json: string | null;
  result_texts: string | null;
  seed: number;
  attempts: number;
  event_count: number;
  create_time: number;
  update_time: number;
}

const COLUMNS =
  "id, owner_id, previous_id, model, agent, status, background, request_json, input_contents_json, output_contents_json, output_contents_texts, result_json, result_texts, seed, attempts, event_count, create_time, update_time";

/** Pieces deleted by one statement: an interaction's audio is a thousand pieces. */
const DELETE_PIECES = 64;

function stored(json: string | null, texts: string | null): StoredJson | null {
  return json === null ? null : { json, texts };
}

/** A later turn of the event loop: other callers' statements and requests run meanwhile. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Longest chain of continued interactions read as one conversation. */
export const MAX_CONVERSATION_DEPTH = 10_000;

function fromRow(row: InteractionRow): InteractionRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    previousId: row.previous_id,
    model: row.model,
    agent: row.agent,
    status: row.status,
    background: Number(row.background) === 1,
    requestJson: row.request_json,
    inputContentsJson: row.input_contents_json,
    outputContents: stored(row.output_contents_json, row.output_contents_texts),
    result: stored(row.result_json, row.result_texts),
    seed: Number(row.seed),
    attempts: Number(row.attempts),
    eventCount: Number(row.event_count),
    createTime: Number(row.create_time),
    updateTime: Number(row.update_time),
  };
}

export class InteractionStore {
  constructor(private readonly database: SqlDatabase) {}

  /** Stores a new interaction with the first events of its stream, together. */
  async create(record: InteractionRecord, events: StoredJson[] = []): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await transaction.run(
        `INSERT INTO interactions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.id,
          record.ownerId,
          record.previousId,
          record.model,
          record.agent,
          record.status,
          record.background ? 1 : 0,
          record.requestJson,
          record.inputContentsJson,
          record.outputContents?.json ?? null,
          record.outputContents?.texts ?? null,
          record.result?.json ?? null,
          record.result?.texts ?? null,
          record.seed,
          record.attempts,
          events.length,
          record.createTime,
          record.updateTime,
        ],
      );
      await this.insertEvents(transaction, record.id, { from: 0, events });
    });
  }

  async get(id: string): Promise<InteractionRecord | undefined> {
    const row = await this.database.get<InteractionRow>(
      `SELECT ${COLUMNS} FROM interactions WHERE id = ?`,
      [id],
    );
    return row ? fromRow(row) : undefined;
  }

  /**
   * The turns of the conversation up to and including interaction `id`, oldest first: each
   * interaction's input and output contents (JSON). A deleted interaction ends the chain.
   */
  async conversation(
    id: string,
  ): Promise<{ id: string; input: string; output: StoredJson | null }[]> {
    const rows = await this.database.all<{
      id: string;
      input_contents_json: string;
      output_contents_json: string | null;
      output_contents_texts: string | null;
    }>(
      `WITH RECURSIVE chain (id, previous_id, depth) AS (
         SELECT id, previous_id, 0 FROM interactions WHERE id = ?
         UNION ALL
         SELECT i.id, i.previous_id, chain.depth + 1 FROM interactions i
           JOIN chain ON i.id = chain.previous_id WHERE chain.depth < ?
       )
       SELECT i.id, i.input_contents_json, i.output_contents_json, i.output_contents_texts FROM chain
         JOIN interactions i ON i.id = chain.id ORDER BY chain.depth DESC`,
      [id, MAX_CONVERSATION_DEPTH],
    );
    return rows.map((row) => ({
      id: row.id,
      input: row.input_contents_json,
      output: stored(row.output_contents_json, row.output_contents_texts),
    }));
  }

  private async insertEvents(executor: SqlExecutor, id: string, batch: EventBatch): Promise<void> {
    // One statement per few hundred events: a long answer's thousands of deltas in a few writes.
    for (let start = 0; start < batch.events.length; start += 200) {
      const slice = batch.events.slice(start, start + 200);
      await executor.run(
        `INSERT INTO interaction_events (interaction_id, position, event_json, event_texts) VALUES ${slice.map(() => "(?, ?, ?, ?)").join(", ")}`,
        slice.flatMap((event, offset) => [
          id,
          batch.from + start + offset,
          event.json,
          event.texts,
        ]),
      );
    }
  }

  /**
   * Appends events of a running interaction's stream, in order; false (nothing written) when
   * it is gone or another writer moved it on meanwhile.
   */
  async appendEvents(id: string, batch: EventBatch, now: number): Promise<boolean> {
    if (batch.events.length === 0) return true;
    return this.database.transaction(async (transaction) => {
      const { changes } = await transaction.run(
        "UPDATE interactions SET event_count = ?, update_time = ? WHERE id = ? AND event_count = ?",
        [batch.from + batch.events.length, now, id, batch.from],
      );
      if (changes === 0) return false;
      await this.insertEvents(transaction, id, batch);
      return true;
    });
  }

  /** Up to `limit` events from `position` on, in order. */
  async eventsFrom(
    id: string,
    position: number,
    limit: number,
  ): Promise<{ position: number; event: StoredJson }[]> {
    const rows = await this.database.all<{
      position: number;
      event_json: string;
      event_texts: string | null;
    }>(
      `SELECT position, event_json, event_texts FROM interaction_events
       WHERE interaction_id = ? AND position >= ? ORDER BY position LIMIT ?`,
      [id, position, limit],
    );
    return rows.map((row) => ({
      position: Number(row.position),
      event: { json: row.event_json, texts: row.event_texts },
    }));
  }

  /**
   * Stores pieces of long strings of interaction `id`, in one statement: the caller keeps each
   * call to a few hundred kilobytes and lets other work in between calls. They are read by
   * what names their `textId` once stored (an event, the result), and deleted with the
   * interaction.
   */
  async insertPieces(id: string, pieces: readonly TextPiece[]): Promise<void> {
    if (pieces.length === 0) return;
    await this.database.run(
      `INSERT INTO interaction_pieces (interaction_id, text_id, seq, piece) VALUES ${pieces.map(() => "(?, ?, ?, ?)").join(", ")}`,
      pieces.flatMap((piece) => [id, piece.textId, piece.seq, piece.piece]),
    );
  }

  /** Up to `limit` pieces of long string `textId` of interaction `id`, from piece `seq` on, in order. */
  async pieces(id: string, textId: string, seq: number, limit: number): Promise<string[]> {
    const rows = await this.database.all<{ piece: string }>(
      `SELECT piece FROM interaction_pieces WHERE interaction_id = ? AND text_id = ? AND seq >= ?
       ORDER BY seq LIMIT ?`,
      [id, textId, seq, limit],
      { hot: true },
    );
    return rows.map((row) => row.piece);
  }

  /**
   * Deletes the pieces of interaction `id` when it is gone: pieces a run wrote for an event or
   * a result the store then refused (the interaction was deleted meanwhile).
   */
  async deletePiecesOfGone(id: string): Promise<void> {
    if (await this.database.get("SELECT 1 AS found FROM interactions WHERE id = ?", [id])) return;
    await this.deletePieces(id);
  }

  /** Deletes every piece of interaction `id`, a few at a time, other callers' work in between. */
  private async deletePieces(id: string): Promise<void> {
    for (;;) {
      const { changes } = await this.database.run(
        `DELETE FROM interaction_pieces WHERE interaction_id = ? AND (text_id, seq) IN (
           SELECT text_id, seq FROM interaction_pieces WHERE interaction_id = ? LIMIT ?)`,
        [id, id, DELETE_PIECES],
      );
      if (changes < DELETE_PIECES) return;
      await nextTurn();
    }
  }

  /** Counts a run of an interaction that has not ended; answers the runs so far, or null if it has ended. */
  async startRun(id: string, now: number): Promise<number | null> {
    return this.database.transaction(async (transaction) => {
      const { changes } = await transaction.run(
        `UPDATE interactions SET attempts = attempts + 1, status = 'in_progress', update_time = ?
         WHERE id = ? AND status IN ${ACTIVE}`,
        [now, id],
      );
      if (changes === 0) return null;
      const row = await transaction.get<{ attempts: number }>(
        "SELECT attempts FROM interactions WHERE id = ?",
        [id],
      );
      return row ? Number(row.attempts) : null;
    });
  }

  /**
   * Ends an interaction that has not ended, with the last events of its stream in the same
   * transaction; false when it had already ended (cancelled) or is gone.
   */
  async finish(
    id: string,
    ending: InteractionEnding,
    last: EventBatch,
    now: number,
  ): Promise<boolean> {
    return this.database.transaction(async (transaction) => {
      const { changes } = await transaction.run(
        `UPDATE interactions SET status = ?, result_json = ?, result_texts = ?,
           output_contents_json = ?, output_contents_texts = ?, event_count = ?, update_time = ?
         WHERE id = ? AND status IN ${ACTIVE} AND event_count = ?`,
        [
          ending.status,
          ending.result.json,
          ending.result.texts,
          ending.outputContents.json,
          ending.outputContents.texts,
          last.from + last.events.length,
          now,
          id,
          last.from,
        ],
      );
      if (changes === 0) return false;
      await this.insertEvents(transaction, id, last);
      return true;
    });
  }

  /**
   * Ends an interaction that has not ended as cancelled (or failed) from outside its run: its
   * result, and its last `count` events written after whatever the run stored (the update
   * waits for a run's append in progress, then takes the next positions). False when it had
   * ended already or is gone; the run's next append or finish then fails, so it stops.
   */
  async stop(
    id: string,
    ending: { status: InteractionEnding["status"]; resultJson: string },
    last: { count: number; events: (position: number) => StoredJson[] },
    now: number,
  ): Promise<boolean> {
    return this.database.transaction(async (transaction) => {
      const row = await transaction.get<{ event_count: number }>(
        `UPDATE interactions SET status = ?, result_json = ?, result_texts = NULL,
           output_contents_json = '[]', output_contents_texts = NULL, event_count = event_count + ?, update_time = ?
         WHERE id = ? AND status IN ${ACTIVE} RETURNING event_count`,
        [ending.status, ending.resultJson, last.count, now, id],
      );
      if (!row) return false;
      const position = Number(row.event_count) - last.count;
      await this.insertEvents(transaction, id, { from: position, events: last.events(position) });
      return true;
    });
  }

  /** An interaction's status and the events of its stream stored so far (a follower's poll). */
  async progress(
    id: string,
  ): Promise<{ status: InteractionStatus; eventCount: number } | undefined> {
    const row = await this.database.get<{ status: InteractionStatus; event_count: number }>(
      "SELECT status, event_count FROM interactions WHERE id = ?",
      [id],
    );
    return row ? { status: row.status, eventCount: Number(row.event_count) } : undefined;
  }

  /**
   * Deletes an interaction and its events, then the pieces of its long strings (after: a
   * reader finds the interaction gone rather than a piece missing); false when there was none.
   */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.database.transaction(async (transaction) => {
      await transaction.run("DELETE FROM interaction_events WHERE interaction_id = ?", [id]);
      return (await transaction.run("DELETE FROM interactions WHERE id = ?", [id])).changes > 0;
    });
    await this.deletePieces(id);
    return deleted;
  }

  /** Interactions that have not ended, oldest first: runs to look after. */
  async active(limit: number): Promise<InteractionRecord[]> {
    const rows = await this.database.all<InteractionRow>(
      `SELECT ${COLUMNS} FROM interactions WHERE status IN ${ACTIVE} ORDER BY create_time, id LIMIT ?`,
      [limit],
    );
    return rows.map(fromRow);
  }

  /** Whether interaction `id` has not ended (a cheap read for a run checking it was not cancelled). */
  async isActive(id: string): Promise<boolean> {
    const row = await this.database.get<{ status: string }>(
      "SELECT status FROM interactions WHERE id = ?",
      [id],
    );
    return (
      row !== undefined && (ACTIVE_INTERACTION_STATUSES as readonly string[]).includes(row.status)
    );
  }

  /** Claims interaction `id` for this process's run until the release (or the process's end); null when another holds it. */
  claim(id: string): Promise<(() => Promise<void>) | null> {
    return this.database.tryClaim(`interaction:${id}`);
  }

  /** Deletes ended interactions last updated before `cutoff` (with their events); answers how many. */
  async sweep(cutoff: number): Promise<number> {
    const rows = await this.database.all<{ id: string }>(
      `SELECT id FROM interactions WHERE status NOT IN ${ACTIVE} AND update_time < ? LIMIT 500`,
      [cutoff],
    );
    let deleted = 0;
    for (const { id } of rows) if (await this.delete(id)) deleted += 1;
    return deleted;
  }
}
