/**
 * The one interface every store is written against, with a SQLite and a PostgreSQL driver
 * behind it. Statements use `?` placeholders and the SQL both engines share; the few places
 * where the dialects differ ask `dialect`. Every call is async, even on SQLite, so both drivers
 * fit one interface.
 */
import { ApiError } from "@/lib/gemini/api-error";

export type SqlDialect = "sqlite" | "postgres";

/** What a statement may bind: text, numbers (64-bit integers as JS numbers) and NULL. */
export type SqlValue = string | number | null;

/** How one statement is run. */
export interface StatementOptions {
  /**
   * A statement on the path of every request: PostgreSQL parses and plans it once per
   * connection (a named prepared statement) instead of at each call, as SQLite's driver does
   * for every statement. Only for a fixed text (no list of varying length), so they stay few.
   */
  hot?: boolean;
}

export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** Every row the statement returns. */
  all<Row>(sql: string, params?: readonly SqlValue[], options?: StatementOptions): Promise<Row[]>;
  /** The first row, or undefined. */
  get<Row>(
    sql: string,
    params?: readonly SqlValue[],
    options?: StatementOptions,
  ): Promise<Row | undefined>;
  /** Runs a statement that returns no rows; `changes` counts the rows it wrote. */
  run(
    sql: string,
    params?: readonly SqlValue[],
    options?: StatementOptions,
  ): Promise<{ changes: number }>;
}

/** The executor inside a transaction. */
export interface SqlTransaction extends SqlExecutor {
  /**
   * Serialises this transaction with every other one that names `key`, on any instance, until
   * it ends (PostgreSQL: an advisory transaction lock; SQLite: a no-op, since its write
   * transactions already run one at a time).
   */
  serialize(key: string): Promise<void>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface SqlDatabase extends SqlExecutor {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (transaction: SqlTransaction) => Promise<T>): Promise<T>;
  /**
   * Claims `key` for this process until the returned release is called or the process dies
   * (PostgreSQL: a session advisory lock on a connection of its own, freed by the server when
   * that connection drops; SQLite: within this process). Null when it is claimed already.
   */
  tryClaim(key: string): Promise<(() => Promise<void>) | null>;
  /**
   * Calls `onPayload` with each notification sent on `channel` by any instance (PostgreSQL:
   * LISTEN on a connection of its own, opened at the first listener and again after it drops;
   * notifications sent while it is down are lost). SQLite has none: `onPayload` is never called
   * (several instances need PostgreSQL). Returns the unsubscribe. Never throws: what a listener
   * hears is a hint to look sooner, never the only way something is learnt.
   */
  listen(channel: string, onPayload: (payload: string) => void): () => void;
  close(): Promise<void>;
}

/**
 * Thrown by a driver when the database cannot be reached (down, restarting, connection lost):
 * the service's 503 UNAVAILABLE, so clients retry; nothing of the failed call was written.
 */
export class DatabaseUnavailableError extends ApiError {
  constructor(
    reason: string,
    /** The driver's own error, for the start-up message and logs; never sent to a client. */
    readonly driverError?: unknown,
  ) {
    super(
      503,
      "UNAVAILABLE",
      `The studio's database is unavailable (${reason}). Nothing was changed; retry shortly.`,
    );
  }
}

/** A problem found while opening the database: the process cannot start with it. */
export class DatabaseStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseStartError";
  }
}
