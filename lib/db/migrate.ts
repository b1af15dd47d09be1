import "server-only";
import { MIGRATIONS, migrationSql, type Migration } from "./migrations";
import { DatabaseStartError, type SqlDatabase } from "./sql-database";

/**
 * Brings the schema up to date: the numbered migrations not yet applied run in order, all in
 * one transaction, so a failure leaves the schema as it was. Safe when several instances start
 * at the same moment: PostgreSQL serialises them on an advisory lock, SQLite on its write lock
 * (BEGIN IMMEDIATE); whoever comes second finds the work done.
 */
export async function migrate(
  database: SqlDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<void> {
  await database.transaction(async (transaction) => {
    await transaction.serialize("genstudio:migrations");
    // Created only when missing: a user that may not change the schema can still start on a
    // current one (and is then told it may not write, lib/db/open-database.ts).
    const found = await transaction.get(
      transaction.dialect === "sqlite"
        ? "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        : "SELECT 1 AS found WHERE to_regclass('schema_migrations') IS NOT NULL",
    );
    if (!found) {
      await transaction.exec(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
      );
    }
    const applied = new Set(
      (await transaction.all<{ version: number }>("SELECT version FROM schema_migrations")).map(
        (row) => row.version,
      ),
    );
    const newest = Math.max(0, ...migrations.map((migration) => migration.version));
    const ahead = [...applied].filter((version) => version > newest);
    if (ahead.length > 0) {
      throw new DatabaseStartError(
        `The database's schema is at version ${Math.max(...ahead)}, newer than this build knows (${newest}): a newer Genstudio has migrated it. Run that version (or a newer one) on every instance.`,
      );
    }
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await transaction.exec(migrationSql(migration, transaction.dialect));
      await transaction.run(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        [migration.version, migration.name, new Date().toISOString()],
      );
    }
  });
}
