import "server-only";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { SqlDatabase, SqlTransaction, SqlValue } from "./sql-database";

/**
 * The embedded driver: one better-sqlite3 connection to `DATA_DIR/genstudio.sqlite` in WAL
 * mode. Statements run synchronously behind the async interface; a transaction holds the
 * connection until it ends, so statements of other requests wait instead of landing inside it.
 */

export const SQLITE_FILE_NAME = "genstudio.sqlite";

/** A lock handed from one holder to the next in the order they asked. */
class Turnstile {
  private tail: Promise<void> = Promise.resolve();
  held = false;

  async acquire(): Promise<() => void> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise((resolve) => (release = resolve));
    await previous;
    this.held = true;
    return () => {
      this.held = false;
      release();
    };
  }
}

export class SqliteDatabase implements SqlDatabase {
  readonly dialect = "sqlite" as const;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly turnstile = new Turnstile();
  private readonly claims = new Set<string>();
  private readonly direct: SqlTransaction;

  constructor(readonly connection: Database.Database) {
    const prepare = (sql: string) => this.prepare(sql);
    this.direct = {
      dialect: "sqlite",
      async all<Row>(sql: string, params: readonly SqlValue[] = []) {
        return prepare(sql).all(...params) as Row[];
      },
      async get<Row>(sql: string, params: readonly SqlValue[] = []) {
        return prepare(sql).get(...params) as Row | undefined;
      },
      async run(sql: string, params: readonly SqlValue[] = []) {
        return { changes: prepare(sql).run(...params).changes };
      },
      async serialize() {},
      exec: async (script: string) => {
        this.connection.exec(script);
      },
    };
  }

  /** Opens (creating if needed) the database file under `dataDir`. */
  static open(dataDir: string): SqliteDatabase {
    fs.mkdirSync(dataDir, { recursive: true });
    const connection = new Database(path.join(dataDir, SQLITE_FILE_NAME));
    connection.pragma("journal_mode = WAL");
    connection.pragma("synchronous = NORMAL");
    connection.pragma("foreign_keys = ON");
    connection.pragma("busy_timeout = 5000");
    return new SqliteDatabase(connection);
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Waits while a transaction holds the connection. */
  private async outside<T>(work: () => Promise<T>): Promise<T> {
    if (!this.turnstile.held) return work();
    const release = await this.turnstile.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  all<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]> {
    return this.outside(() => this.direct.all<Row>(sql, params));
  }

  get<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined> {
    return this.outside(() => this.direct.get<Row>(sql, params));
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    return this.outside(() => this.direct.run(sql, params));
  }

  async transaction<T>(work: (transaction: SqlTransaction) => Promise<T>): Promise<T> {
    const release = await this.turnstile.acquire();
    try {
      // IMMEDIATE takes the write lock at once, so two processes on one file queue here
      // (busy_timeout) instead of failing at their first write.
      this.connection.exec("BEGIN IMMEDIATE");
      try {
        const result = await work(this.direct);
        this.connection.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.connection.inTransaction) this.connection.exec("ROLLBACK");
        throw error;
      }
    } finally {
      release();
    }
  }

  async tryClaim(key: string): Promise<(() => Promise<void>) | null> {
    if (this.claims.has(key)) return null;
    this.claims.add(key);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.claims.delete(key);
    };
  }

  listen(): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    if (this.connection.open) this.connection.close();
  }
}
