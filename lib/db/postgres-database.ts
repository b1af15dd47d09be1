import "server-only";
import pg from "pg";
import {
  DatabaseUnavailableError,
  type SqlDatabase,
  type StatementOptions,
  type SqlExecutor,
  type SqlTransaction,
  type SqlValue,
} from "./sql-database";

/**
 * The PostgreSQL driver (`DATABASE_URL=postgres://…`): a pool of `pg` connections shared by
 * every request of this instance. Statements are written with `?` placeholders (as for
 * SQLite) and numbered here. 64-bit integers and sums come back as JS numbers: every one we
 * store (times in ms, sizes in bytes) is below 2^53. A lost or refused connection becomes
 * DatabaseUnavailableError (503 UNAVAILABLE); the pool reconnects by itself once the server
 * is back. Besides the pool, two connections of its own: one holds this instance's claims
 * (advisory locks), one LISTENs for notifications (opened at the first listener, reopened after
 * a loss).
 */

const INT8_OID = 20;
const LISTEN_RETRY_FIRST_MS = 1_000;
const LISTEN_RETRY_LAST_MS = 30_000;
const NUMERIC_OID = 1700;

const parsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** `?` → `$1, $2, …`, outside quoted strings and identifiers. Linear in the statement. */
export function numberPlaceholders(sql: string): string {
  let result = "";
  let index = 0;
  let quote: string | null = null;
  for (const character of sql) {
    if (quote !== null) {
      if (character === quote) quote = null;
      result += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      result += character;
    } else if (character === "?") {
      result += `$${++index}`;
    } else {
      result += character;
    }
  }
  return result;
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** The reason, for the 503's message, when `error` means the database cannot do work now; else null. */
export function unavailableReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (CONNECTION_CODES.has(code) || code.startsWith("08")) return "no connection";
    // admin_shutdown, crash_shutdown, cannot_connect_now: a restart in progress.
    if (code === "57P01" || code === "57P02" || code === "57P03") return "restarting";
    if (code === "53300") return "too many connections";
    if (code === "25006") return "it is read-only";
    if (code === "42501") return "the database user may not write";
    if (code === "53100") return "its disk is full";
  }
  if (
    /Connection terminated|timeout exceeded when trying to connect|not queryable/i.test(
      error.message,
    )
  )
    return "no connection";
  return null;
}

function translated(error: unknown): unknown {
  const reason = unavailableReason(error);
  return reason === null ? error : new DatabaseUnavailableError(reason, error);
}

type Query = (
  sql: string,
  params: readonly SqlValue[],
  options?: StatementOptions,
) => Promise<pg.QueryResult>;

function executor(query: Query): SqlExecutor {
  return {
    dialect: "postgres",
    async all<Row>(sql: string, params: readonly SqlValue[] = [], options?: StatementOptions) {
      return (await query(sql, params, options)).rows as Row[];
    },
    async get<Row>(sql: string, params: readonly SqlValue[] = [], options?: StatementOptions) {
      return (await query(sql, params, options)).rows[0] as Row | undefined;
    },
    async run(sql: string, params: readonly SqlValue[] = [], options?: StatementOptions) {
      return { changes: (await query(sql, params, options)).rowCount ?? 0 };
    },
  };
}

export interface PostgresOptions {
  connectionString: string;
  /** Connections this instance may hold (default 10). */
  maxConnections?: number;
  /** Longest wait for a connection before a request answers 503 (default 5 s). */
  connectTimeoutMs?: number;
  onError?: (message: string, error: unknown) => void;
}

export class PostgresDatabase implements SqlDatabase {
  readonly dialect = "postgres" as const;
  private readonly pool: pg.Pool;
  private readonly texts = new Map<string, string>();
  /** Names of the hot statements' prepared forms, by their text. */
  private readonly preparedNames = new Map<string, string>();
  private readonly direct: SqlExecutor;
  /** The connection that holds this instance's claims; they end with it. */
  private claimConnection: Promise<pg.Client> | null = null;
  /** Claims held here: a session advisory lock is re-entrant, so the connection alone would grant one twice. */
  private readonly claims = new Set<string>();
  /** Listeners by channel, all served by one connection that LISTENs on each channel. */
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private listenConnection: pg.Client | null = null;
  /** The next attempt to (re)open the listening connection, and how long the one after waits. */
  private listenRetry: ReturnType<typeof setTimeout> | null = null;
  private listenRetryMs = LISTEN_RETRY_FIRST_MS;
  private closed = false;

  constructor(private readonly options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      types: parsers,
    });
    // An idle connection the server closed (a restart) must not take the process down.
    this.pool.on("error", (error) => options.onError?.("idle database connection lost", error));
    this.direct = executor((sql, params, options) => this.query(this.pool, sql, params, options));
  }

  private text(sql: string): string {
    let text = this.texts.get(sql);
    if (text === undefined) {
      text = numberPlaceholders(sql);
      this.texts.set(sql, text);
    }
    return text;
  }

  private async query(
    target: pg.Pool | pg.PoolClient | pg.Client,
    sql: string,
    params: readonly SqlValue[],
    options?: StatementOptions,
  ): Promise<pg.QueryResult> {
    try {
      const values = params as SqlValue[];
      if (!options?.hot) return await target.query(this.text(sql), values);
      let name = this.preparedNames.get(sql);
      if (name === undefined) {
        name = `genstudio_${this.preparedNames.size + 1}`;
        this.preparedNames.set(sql, name);
      }
      return await target.query({ name, text: this.text(sql), values });
    } catch (error) {
      throw translated(error);
    }
  }

  all<Row>(sql: string, params?: readonly SqlValue[], options?: StatementOptions): Promise<Row[]> {
    return this.direct.all<Row>(sql, params, options);
  }

  get<Row>(
    sql: string,
    params?: readonly SqlValue[],
    options?: StatementOptions,
  ): Promise<Row | undefined> {
    return this.direct.get<Row>(sql, params, options);
  }

  run(
    sql: string,
    params?: readonly SqlValue[],
    options?: StatementOptions,
  ): Promise<{ changes: number }> {
    return this.direct.run(sql, params, options);
  }

  async transaction<T>(work: (transaction: SqlTransaction) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translated(error);
    }
    const transaction: SqlTransaction = {
      ...executor((sql, params, options) => this.query(client, sql, params, options)),
      serialize: async (key) => {
        await this.query(client, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [key]);
      },
      exec: async (script) => {
        try {
          await client.query(script);
        } catch (error) {
          throw translated(error);
        }
      },
    };
    let broken: unknown;
    try {
      await this.query(client, "BEGIN", []);
      try {
        const result = await work(transaction);
        await this.query(client, "COMMIT", []);
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      }
    } catch (error) {
      if (unavailableReason(error) !== null || error instanceof DatabaseUnavailableError)
        broken ??= error;
      throw error;
    } finally {
      // A connection that failed mid-transaction is closed rather than handed to the next request.
      client.release(broken === undefined ? undefined : true);
    }
  }

  private claimClient(): Promise<pg.Client> {
    if (!this.claimConnection) {
      const client = new pg.Client({
        connectionString: this.options.connectionString,
        connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000,
        types: parsers,
      });
      const forget = (error?: unknown) => {
        if (error) this.options.onError?.("claims connection lost", error);
        if (this.claimConnection === connecting) this.claimConnection = null;
      };
      client.on("error", forget);
      client.on("end", () => forget());
      const connecting = client.connect().then(
        () => client,
        (error: unknown) => {
          forget();
          throw translated(error);
        },
      );
      this.claimConnection = connecting;
    }
    return this.claimConnection;
  }

  async tryClaim(key: string): Promise<(() => Promise<void>) | null> {
    if (this.claims.has(key)) return null;
    this.claims.add(key);
    let client: pg.Client;
    try {
      client = await this.claimClient();
      const row = (
        await this.query(client, "SELECT pg_try_advisory_lock(hashtextextended(?, 0)) AS claimed", [
          key,
        ])
      ).rows[0] as { claimed: boolean };
      if (!row.claimed) {
        this.claims.delete(key);
        return null;
      }
    } catch (error) {
      this.claims.delete(key);
      throw error;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.claims.delete(key);
      // A claim on a connection that has since dropped is already gone.
      if (this.claimConnection !== null && (await this.claimConnection) === client) {
        await this.query(client, "SELECT pg_advisory_unlock(hashtextextended(?, 0))", [key]).catch(
          () => undefined,
        );
      }
    };
  }

  listen(channel: string, onPayload: (payload: string) => void): () => void {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
      const connection = this.listenConnection;
      if (connection)
        connection
          .query(`LISTEN ${channel}`)
          .catch((error: unknown) => this.listenLost(error, connection));
    }
    listeners.add(onPayload);
    if (!this.listenConnection && !this.listenRetry) this.openListenConnection();
    return () => {
      listeners.delete(onPayload);
    };
  }

  /** Opens the listening connection and LISTENs on every channel; on failure, tries again later. */
  private openListenConnection(): void {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000,
      // A connection that silently died would otherwise just stop hearing anything.
      keepAlive: true,
    });
    this.listenConnection = client;
    client.on("notification", (message) => {
      for (const listener of this.channels.get(message.channel) ?? []) {
        try {
          listener(message.payload ?? "");
        } catch (error) {
          this.options.onError?.("a notification listener failed", error);
        }
      }
    });
    client.on("error", (error) => this.listenLost(error, client));
    client.on("end", () => this.listenLost(undefined, client));
    void (async () => {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
      this.listenRetryMs = LISTEN_RETRY_FIRST_MS;
    })().catch((error: unknown) => this.listenLost(error, client));
  }

  /** The listening connection failed: drop it and open another after a pause (doubling, at most 30 s). */
  private listenLost(error: unknown, client: pg.Client): void {
    if (client !== this.listenConnection) return;
    this.listenConnection = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.onError?.("notification connection lost; retrying", error);
    this.listenRetry = setTimeout(() => {
      this.listenRetry = null;
      this.openListenConnection();
    }, this.listenRetryMs);
    this.listenRetry.unref();
    this.listenRetryMs = Math.min(this.listenRetryMs * 2, LISTEN_RETRY_LAST_MS);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.listenRetry) clearTimeout(this.listenRetry);
    const listening = this.listenConnection;
    this.listenConnection = null;
    await listening?.end().catch(() => undefined);
    const claims = this.claimConnection;
    this.claimConnection = null;
    if (claims) await (await claims.catch(() => null))?.end().catch(() => undefined);
    await this.pool.end();
  }
}
