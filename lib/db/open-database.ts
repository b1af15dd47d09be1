import "server-only";
import { migrate } from "./migrate";
import { PostgresDatabase, unavailableReason } from "./postgres-database";
import { DatabaseStartError, DatabaseUnavailableError, type SqlDatabase } from "./sql-database";
import { SqliteDatabase } from "./sqlite-database";

export interface DatabaseSettings {
  /** `postgres://…` selects PostgreSQL; null keeps the embedded SQLite file under `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  onError?: (message: string, error: unknown) => void;
}

/** Where a URL points, without its password: safe for a log line or an error message. */
export function describeDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const user = url.username ? `${decodeURIComponent(url.username)}@` : "";
    return `postgres://${user}${url.host}${url.pathname}`;
  } catch {
    return "an unreadable DATABASE_URL";
  }
}

/**
 * Opens the configured database and brings its schema up to date. Throws DatabaseStartError
 * with a message that says what to fix when it cannot be reached, refuses the login, is newer
 * than this build, or does not let this user write.
 */
export async function openDatabase(settings: DatabaseSettings): Promise<SqlDatabase> {
  if (settings.databaseUrl === null) {
    const database = SqliteDatabase.open(settings.dataDir);
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }
  const where = describeDatabaseUrl(settings.databaseUrl);
  const database = new PostgresDatabase({
    connectionString: settings.databaseUrl,
    onError: settings.onError,
  });
  try {
    await migrate(database);
    await assertWritable(database, where);
  } catch (error) {
    await database.close().catch(() => undefined);
    if (error instanceof DatabaseStartError) throw error;
    throw new DatabaseStartError(`Cannot use the database at ${where}: ${startProblem(error)}`, {
      cause: error,
    });
  }
  return database;
}

function startProblem(failure: unknown): string {
  const error = failure instanceof DatabaseUnavailableError ? failure.driverError : failure;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "28P01" || code === "28000")
    return `the server refused the login (${message}). Check the user and password in DATABASE_URL.`;
  if (code === "3D000") return `${message}. Create the database, or fix its name in DATABASE_URL.`;
  if (code === "42501")
    return `the user may not create or change tables (${message}). Grant it ownership of the schema, or run once with a user that may.`;
  if (unavailableReason(error) !== null)
    return `it cannot be reached (${message}). Check the host and port in DATABASE_URL and that PostgreSQL is running.`;
  return message;
}

/** A read-only user or server would fail every write later; say so at start instead. */
async function assertWritable(database: SqlDatabase, where: string): Promise<void> {
  const readOnly = await database.get<{ transaction_read_only: string }>(
    "SHOW transaction_read_only",
  );
  if (readOnly?.transaction_read_only === "on") {
    throw new DatabaseStartError(
      `The database at ${where} is read-only for this user (transaction_read_only = on); Genstudio needs to write. Point DATABASE_URL at the primary, with a user that may write.`,
    );
  }
  const denied = await database.all<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r'
       AND NOT (has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
                AND has_table_privilege(c.oid, 'UPDATE') AND has_table_privilege(c.oid, 'DELETE'))
     ORDER BY c.relname`,
  );
  if (denied.length > 0) {
    throw new DatabaseStartError(
      `The database user of ${where} may not read and write every table Genstudio uses (missing on: ${denied.map((row) => row.name).join(", ")}). Grant SELECT, INSERT, UPDATE and DELETE on them.`,
    );
  }
}
