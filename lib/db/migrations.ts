import type { SqlDialect } from "./sql-database";

/**
 * Numbered schema migrations, applied in order at start-up (lib/db/migrate.ts). Never edit
 * one that has shipped; add the next number. `sql` is written for both engines; PostgreSQL
 * reads each INTEGER as BIGINT (times are epoch milliseconds). A migration whose SQL cannot
 * be shared gives `postgres` its own text.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  postgres?: string;
}

/** The migration's SQL for one engine. */
export function migrationSql(migration: Migration, dialect: SqlDialect): string {
  if (dialect === "sqlite") return migration.sql;
  return migration.postgres ?? migration.sql.replace(/\bINTEGER\b/g, "BIGINT");
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions",
    sql: `
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_expires_at ON sessions (expires_at);
    `,
  },
  {
    version: 2,
    name: "files, upload sessions and cached contents",
    sql: `
      CREATE TABLE files (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        display_name TEXT,
        mime_type TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        sha256_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        error_json TEXT,
        probe_json TEXT,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL,
        expire_time INTEGER NOT NULL
      );
      CREATE INDEX files_owner_order ON files (owner_id, create_time, id);
      CREATE INDEX files_expire_time ON files (expire_time);
      CREATE INDEX files_state ON files (state);
      CREATE TABLE upload_sessions (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        file_id TEXT NOT NULL UNIQUE,
        display_name TEXT,
        mime_type TEXT NOT NULL,
        declared_size INTEGER NOT NULL,
        received_size INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX upload_sessions_owner_status ON upload_sessions (owner_id, status);
      CREATE INDEX upload_sessions_expires_at ON upload_sessions (expires_at);
      CREATE TABLE cached_contents (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        model TEXT NOT NULL,
        display_name TEXT NOT NULL DEFAULT '',
        content_json TEXT NOT NULL,
        total_token_count INTEGER NOT NULL,
        token_details_json TEXT,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL,
        expire_time INTEGER NOT NULL
      );
      CREATE INDEX cached_contents_owner_order ON cached_contents (owner_id, create_time, id);
      CREATE INDEX cached_contents_expire_time ON cached_contents (expire_time);
    `,
  },
  {
    version: 3,
    name: "conversations",
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        title TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX conversations_owner_updated ON conversations (owner_id, updated_at DESC);
      CREATE TABLE conversation_messages (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        message_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, id)
      );
      CREATE UNIQUE INDEX conversation_messages_order ON conversation_messages (conversation_id, position);
    `,
  },
  {
    version: 4,
    name: "gateway ownership and upload sessions",
    sql: `
      CREATE TABLE resource_owners (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (kind, name)
      );
      CREATE INDEX resource_owners_owner ON resource_owners (owner_id, kind);
      CREATE TABLE upstream_upload_sessions (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        upstream_url TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX upstream_upload_sessions_expires_at ON upstream_upload_sessions (expires_at);
    `,
  },
  {
    version: 5,
    name: "shared limits",
    sql: `
      CREATE TABLE rate_buckets (
        bucket TEXT PRIMARY KEY,
        tokens REAL NOT NULL,
        taken INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE stream_slots (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX stream_slots_owner ON stream_slots (owner_id, expires_at);
      CREATE INDEX stream_slots_instance ON stream_slots (instance_id);
    `,
    postgres: `
      CREATE TABLE rate_buckets (
        bucket TEXT PRIMARY KEY,
        tokens DOUBLE PRECISION NOT NULL,
        taken INTEGER NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE stream_slots (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX stream_slots_owner ON stream_slots (owner_id, expires_at);
      CREATE INDEX stream_slots_instance ON stream_slots (instance_id);
    `,
  },
  {
    version: 6,
    name: "sessions bound to the access code",
    // Sessions opened before the binding existed name no code, so they end here.
    sql: `
      ALTER TABLE sessions ADD COLUMN code_binding TEXT NOT NULL DEFAULT '';
    `,
  },
  {
    version: 7,
    name: "batches",
    sql: `
      ALTER TABLE files ADD COLUMN source TEXT NOT NULL DEFAULT 'UPLOADED';
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        model TEXT NOT NULL,
        display_name TEXT NOT NULL DEFAULT '',
        priority INTEGER NOT NULL DEFAULT 0,
        input_file_name TEXT,
        state TEXT NOT NULL,
        request_count INTEGER NOT NULL,
        done_count INTEGER NOT NULL DEFAULT 0,
        succeeded_count INTEGER NOT NULL DEFAULT 0,
        failed_count INTEGER NOT NULL DEFAULT 0,
        input_offset INTEGER NOT NULL DEFAULT 0,
        output_bytes INTEGER NOT NULL DEFAULT 0,
        results_file_id TEXT,
        error_json TEXT,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL,
        end_time INTEGER
      );
      CREATE INDEX batches_owner_order ON batches (owner_id, create_time, id);
      CREATE INDEX batches_queue ON batches (state, priority, create_time);
      CREATE TABLE batch_requests (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        request_json TEXT NOT NULL,
        metadata_json TEXT,
        outcome_json TEXT,
        PRIMARY KEY (batch_id, position)
      );
      `,
  },
];
