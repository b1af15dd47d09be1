/**
 * The databases the store tests run against, one shared suite for both drivers (as hono runs
 * one router suite against every router): SQLite in a temp folder always, and PostgreSQL when
 * TEST_DATABASE_URL names a server (scripts/test.sh starts one). Each open gets a database of
 * its own: a fresh SQLite file, or a fresh PostgreSQL schema dropped at cleanup.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDataStores, type DataStores } from "@/lib/db/data-stores";
import { openDatabase } from "@/lib/db/open-database";
import type { SqlDatabase, SqlDialect } from "@/lib/db/sql-database";

export interface TestDatabase {
  dialect: SqlDialect;
  database: SqlDatabase;
  stores: DataStores;
  /** The folder for file bytes (and the SQLite file). */
  dataDir: string;
  /** The URL of this database (PostgreSQL only), for a second connection to the same schema. */
  databaseUrl: string | null;
  /** A second connection to the same data, as another instance (or a restarted process) opens it. */
  reopen(options?: { now?: () => number }): Promise<{ database: SqlDatabase; stores: DataStores }>;
  cleanup(): Promise<void>;
}

export interface TestDatabaseKind {
  dialect: SqlDialect;
  open(options?: { now?: () => number }): Promise<TestDatabase>;
}

/** A PostgreSQL URL whose connections use `schema`. */
export function urlWithSchema(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

const sqlite: TestDatabaseKind = {
  dialect: "sqlite",
  async open(options = {}) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-store-test-"));
    const database = await openDatabase({ databaseUrl: null, dataDir });
    const opened: SqlDatabase[] = [];
    return {
      dialect: "sqlite",
      database,
      stores: createDataStores(database, options.now),
      dataDir,
      databaseUrl: null,
      async reopen(again = options) {
        const other = await openDatabase({ databaseUrl: null, dataDir });
        opened.push(other);
        return { database: other, stores: createDataStores(other, again.now) };
      },
      async cleanup() {
        for (const other of opened) await other.close();
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

function postgres(serverUrl: string): TestDatabaseKind {
  return {
    dialect: "postgres",
    async open(options = {}) {
      const schema = `test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const databaseUrl = urlWithSchema(serverUrl, schema);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-store-test-"));
      const database = await openDatabase({ databaseUrl, dataDir });
      const opened: SqlDatabase[] = [];
      return {
        dialect: "postgres",
        database,
        stores: createDataStores(database, options.now),
        dataDir,
        databaseUrl,
        async reopen(again = options) {
          const other = await openDatabase({ databaseUrl, dataDir });
          opened.push(other);
          return { database: other, stores: createDataStores(other, again.now) };
        },
        async cleanup() {
          for (const other of opened) await other.close();
          await database.close();
          const dropper = new pg.Client({ connectionString: serverUrl });
          await dropper.connect();
          await dropper.query(`DROP SCHEMA ${schema} CASCADE`);
          await dropper.end();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** SQLite, and PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? [sqlite, postgres(serverUrl)] : [sqlite];
}
