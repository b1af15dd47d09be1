/**
 * Databases on the test PostgreSQL server (scripts/test-postgres.sh starts it and exports
 * TEST_DATABASE_URL), for the specs that run several instances on one database.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL;

/** A fresh database on the test server, and its URL. */
export async function createDatabase(): Promise<string> {
  const name = `genstudio_multi_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_SERVER_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on `databaseUrl` with a connection of its own. */
export async function sql(databaseUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
