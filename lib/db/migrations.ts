import type { SqlDialect } from "./sql-database";

/**
 * Numbered schema migrations, applied in order at start-up (lib/db/migrate.ts). Never edit
 * one that has shipped; add the next number. `sql` is written for both engines; PostgreSQL
 * reads each INTEGER as BIGINT (times are epoch milliseconds). A migration whose SQL cannot
 * be shared gives `postgres` its own text. One list, as long as the schema's history: it stays
 * whole so the tables are read in the order they were made.
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

/**
 * Migration 22's fill of `usage_spans` from the ledger: spans of 2, 4, … 256 days, each built
 * from the one before it. `firstDayOf(day, span)` is the dialect's first day of the span a day
 * (a `YYYY-MM-DD` column) falls in, counted from 1970-01-01.
 */
function usageSpansFill(firstDayOf: (day: string, span: number) => string): string {
  const statements: string[] = [];
  for (let span = 2; span <= 256; span *= 2) {
    const day = span === 2 ? "day" : "first_day";
    const source = span === 2 ? "usage_daily" : `usage_spans WHERE span = ${span / 2}`;
    const firstDay = firstDayOf(day, span);
    statements.push(`INSERT INTO usage_spans
        SELECT ${span}, ${firstDay}, person_id, key_id, model,
          SUM(requests), SUM(prompt_tokens), SUM(cached_tokens), SUM(output_tokens),
          SUM(thought_tokens), SUM(total_tokens), SUM(nanodollars)
        FROM ${source} GROUP BY ${firstDay}, person_id, key_id, model;`);
  }
  return statements.join("\n      ");
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
  {
    version: 8,
    name: "conversation trees, answers generated on the server, full-text search, undoable deletes",
    // Messages move to a table keyed by a stable integer `sequence` (the order they were
    // written; the search index refers to it). Existing conversations become one branch: each
    // message's parent is the one before it, and every choice is the one that was shown.
    sql: `
      CREATE TABLE conversation_messages_tree (
        sequence INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        parent_id TEXT,
        selected_child_id TEXT,
        role TEXT NOT NULL,
        message_json TEXT NOT NULL,
        search_text TEXT NOT NULL DEFAULT '',
        generating_until INTEGER,
        stop_requested INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        UNIQUE (conversation_id, id)
      );
      INSERT INTO conversation_messages_tree
        (conversation_id, id, parent_id, selected_child_id, role, message_json, search_text, created_at)
      SELECT m.conversation_id, m.id,
        LAG(m.id) OVER (PARTITION BY m.conversation_id ORDER BY m.position),
        LEAD(m.id) OVER (PARTITION BY m.conversation_id ORDER BY m.position),
        m.role, m.message_json,
        coalesce((SELECT group_concat(json_extract(part.value, '$.text'), char(10))
          FROM json_each(m.message_json, '$.content.parts') AS part
          WHERE json_type(part.value, '$.text') = 'text'
            AND coalesce(json_extract(part.value, '$.thought'), 0) = 0), ''),
        m.created_at
      FROM conversation_messages AS m
      ORDER BY m.conversation_id, m.position;
      DROP TABLE conversation_messages;
      ALTER TABLE conversation_messages_tree RENAME TO conversation_messages;
      CREATE INDEX conversation_messages_order ON conversation_messages (conversation_id, sequence);
      CREATE INDEX conversation_messages_replies ON conversation_messages (conversation_id, parent_id, sequence);
      CREATE INDEX conversation_messages_generating ON conversation_messages (generating_until)
        WHERE generating_until IS NOT NULL;
      ALTER TABLE conversations ADD COLUMN selected_root_id TEXT;
      ALTER TABLE conversations ADD COLUMN deleted_at INTEGER;
      UPDATE conversations SET selected_root_id = (
        SELECT id FROM conversation_messages
        WHERE conversation_id = conversations.id AND parent_id IS NULL
        ORDER BY sequence LIMIT 1);
      CREATE VIRTUAL TABLE conversation_search USING fts5 (
        search_text,
        content = 'conversation_messages',
        content_rowid = 'sequence',
        tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO conversation_search (conversation_search) VALUES ('rebuild');
      CREATE TRIGGER conversation_search_insert AFTER INSERT ON conversation_messages BEGIN
        INSERT INTO conversation_search (rowid, search_text) VALUES (new.sequence, new.search_text);
      END;
      CREATE TRIGGER conversation_search_delete AFTER DELETE ON conversation_messages BEGIN
        INSERT INTO conversation_search (conversation_search, rowid, search_text)
          VALUES ('delete', old.sequence, old.search_text);
      END;
      CREATE TRIGGER conversation_search_update AFTER UPDATE OF search_text ON conversation_messages BEGIN
        INSERT INTO conversation_search (conversation_search, rowid, search_text)
          VALUES ('delete', old.sequence, old.search_text);
        INSERT INTO conversation_search (rowid, search_text) VALUES (new.sequence, new.search_text);
      END;
    `,
    // PostgreSQL: the search text is indexed as a generated tsvector ('simple': no stemming,
    // as FTS5's unicode61), GIN-indexed.
    postgres: `
      CREATE TABLE conversation_messages_tree (
        sequence BIGSERIAL PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        parent_id TEXT,
        selected_child_id TEXT,
        role TEXT NOT NULL,
        message_json TEXT NOT NULL,
        search_text TEXT NOT NULL DEFAULT '',
        search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
        generating_until BIGINT,
        stop_requested INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        UNIQUE (conversation_id, id)
      );
      INSERT INTO conversation_messages_tree
        (conversation_id, id, parent_id, selected_child_id, role, message_json, search_text, created_at)
      SELECT m.conversation_id, m.id,
        LAG(m.id) OVER (PARTITION BY m.conversation_id ORDER BY m.position),
        LEAD(m.id) OVER (PARTITION BY m.conversation_id ORDER BY m.position),
        m.role, m.message_json,
        coalesce((SELECT string_agg(part.value ->> 'text', chr(10))
          FROM jsonb_array_elements(
            CASE WHEN jsonb_typeof(m.message_json::jsonb -> 'content' -> 'parts') = 'array'
              THEN m.message_json::jsonb -> 'content' -> 'parts' ELSE '[]'::jsonb END) AS part
          WHERE jsonb_typeof(part.value -> 'text') = 'string'
            AND coalesce(part.value ->> 'thought', 'false') <> 'true'), ''),
        m.created_at
      FROM conversation_messages AS m
      ORDER BY m.conversation_id, m.position;
      DROP TABLE conversation_messages;
      ALTER TABLE conversation_messages_tree RENAME TO conversation_messages;
      CREATE INDEX conversation_messages_order ON conversation_messages (conversation_id, sequence);
      CREATE INDEX conversation_messages_replies ON conversation_messages (conversation_id, parent_id, sequence);
      CREATE INDEX conversation_messages_generating ON conversation_messages (generating_until)
        WHERE generating_until IS NOT NULL;
      CREATE INDEX conversation_messages_search ON conversation_messages USING GIN (search_vector);
      ALTER TABLE conversations ADD COLUMN selected_root_id TEXT;
      ALTER TABLE conversations ADD COLUMN deleted_at BIGINT;
      UPDATE conversations SET selected_root_id = (
        SELECT id FROM conversation_messages
        WHERE conversation_id = conversations.id AND parent_id IS NULL
        ORDER BY sequence LIMIT 1);
      `,
  },
  {
    version: 9,
    name: "prefix indexes for searching while typing",
    // The last word of a search is a prefix (the person is still typing it). Without prefix
    // indexes FTS5 merges the lists of every word that starts with it, for each match and
    // again for each passage: a four-letter prefix over a million messages took seconds.
    // PostgreSQL's GIN index answers `word:*` from its own sorted keys: nothing to change.
    sql: `
      DROP TRIGGER conversation_search_insert;
      DROP TRIGGER conversation_search_delete;
      DROP TRIGGER conversation_search_update;
      DROP TABLE conversation_search;
      CREATE VIRTUAL TABLE conversation_search USING fts5 (
        search_text,
        content = 'conversation_messages',
        content_rowid = 'sequence',
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '2 3 4'
      );
      INSERT INTO conversation_search (conversation_search) VALUES ('rebuild');
      CREATE TRIGGER conversation_search_insert AFTER INSERT ON conversation_messages BEGIN
        INSERT INTO conversation_search (rowid, search_text) VALUES (new.sequence, new.search_text);
      END;
      CREATE TRIGGER conversation_search_delete AFTER DELETE ON conversation_messages BEGIN
        INSERT INTO conversation_search (conversation_search, rowid, search_text)
          VALUES ('delete', old.sequence, old.search_text);
      END;
      CREATE TRIGGER conversation_search_update AFTER UPDATE OF search_text ON conversation_messages BEGIN
        INSERT INTO conversation_search (conversation_search, rowid, search_text)
          VALUES ('delete', old.sequence, old.search_text);
        INSERT INTO conversation_search (rowid, search_text) VALUES (new.sequence, new.search_text);
      END;
    `,
    postgres: "SELECT 1;",
  },
  {
    version: 10,
    name: "ownership records with an expiry; sizes for the per-owner quotas",
    // Files recorded before live 48 hours from their record, as the upstream keeps them.
    // Caches recorded before keep no expiry (kept until deleted or found gone). A cache's
    // size is its cached input as stored (length() counts characters, close enough for rows
    // written before sizes were kept).
    sql: `
      ALTER TABLE resource_owners ADD COLUMN expires_at INTEGER;
      ALTER TABLE resource_owners ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE resource_owners SET expires_at = created_at + 172800000 WHERE kind = 'file';
      CREATE INDEX resource_owners_expires_at ON resource_owners (expires_at);
      ALTER TABLE cached_contents ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE cached_contents SET size_bytes = length(content_json);
      CREATE INDEX cached_contents_owner_expiry ON cached_contents (owner_id, expire_time);
    `,
  },
  {
    version: 11,
    name: "bytes the gateway forwarded to each upload session",
    // NULL: unknown (a chunk is under way or broke off), so a query asks the upstream.
    sql: `
      ALTER TABLE upstream_upload_sessions ADD COLUMN size_received INTEGER;
    `,
  },
  {
    version: 12,
    name: "answers followed from another instance",
    // Until when a page on another instance follows an answer being generated (its runner
    // then writes progress within a fraction of a second instead of every few seconds).
    sql: `
      ALTER TABLE conversation_messages ADD COLUMN followed_until INTEGER;
    `,
  },
  {
    version: 13,
    name: "file search stores, their documents, uploads and operations",
    // A document keeps its extracted text (what retrieval searches); an upload maps the file
    // upload session carrying a document's bytes to its store and the document's options.
    sql: `
      CREATE TABLE file_search_stores (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        display_name TEXT,
        embedding_model TEXT NOT NULL,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      );
      CREATE INDEX file_search_stores_owner ON file_search_stores (owner_id, create_time);
      CREATE TABLE file_search_documents (
        store_id TEXT NOT NULL,
        id TEXT NOT NULL,
        display_name TEXT,
        mime_type TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        text TEXT NOT NULL,
        custom_metadata_json TEXT,
        state TEXT NOT NULL,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL,
        PRIMARY KEY (store_id, id)
      );
      CREATE TABLE file_search_uploads (
        upload_id TEXT PRIMARY KEY,
        store_id TEXT NOT NULL,
        options_json TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE file_search_operations (
        name TEXT PRIMARY KEY,
        store_id TEXT NOT NULL,
        response_json TEXT NOT NULL,
        create_time INTEGER NOT NULL
      );
      CREATE INDEX file_search_operations_store ON file_search_operations (store_id);
    `,
  },
  {
    version: 14,
    name: "implicit cache prefixes",
    // Fingerprints of the prompt prefixes a caller sent recently, per model, block by block
    // (lib/engine/caches/implicit-cache.ts): a later request of the same owner sharing one is
    // answered with its cached tokens. Rows expire minutes after their last use.
    sql: `
      CREATE TABLE implicit_cache_prefixes (
        owner_id TEXT NOT NULL,
        model TEXT NOT NULL,
        prefix_hash TEXT NOT NULL,
        expire_time INTEGER NOT NULL,
        PRIMARY KEY (owner_id, model, prefix_hash)
      );
      CREATE INDEX implicit_cache_prefixes_expiry ON implicit_cache_prefixes (expire_time);
    `,
  },
  {
    version: 15,
    name: "people, their invitations and resets, API keys people manage, key spend",
    // auth_state holds one row: the version every instance's cache of people and keys
    // compares (bumped with each change that affects authentication) and the secret keys are
    // hashed with. A key's spend is counted per UTC day and month (period "2025-06-01" or
    // "2025-06"), in tokens and in billionths of a dollar.
    sql: `
      CREATE TABLE people (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        role TEXT NOT NULL,
        password_hash TEXT,
        oidc_subject TEXT UNIQUE,
        allowance_json TEXT,
        disabled_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE person_links (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        email TEXT NOT NULL,
        role TEXT NOT NULL,
        person_id TEXT,
        created_by TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE INDEX person_links_email ON person_links (email);
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        person_id TEXT,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        limits_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_owner ON api_keys (owner_id, created_at);
      CREATE INDEX api_keys_person ON api_keys (person_id);
      CREATE TABLE key_spend (
        key_id TEXT NOT NULL,
        period TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        nanodollars INTEGER NOT NULL,
        PRIMARY KEY (key_id, period)
      );
      CREATE TABLE auth_state (
        id INTEGER PRIMARY KEY,
        version INTEGER NOT NULL,
        secret TEXT NOT NULL
      );
      ALTER TABLE sessions ADD COLUMN person_id TEXT;
      ALTER TABLE sessions ADD COLUMN workspace_owner_id TEXT;
      CREATE INDEX sessions_person ON sessions (person_id);
    `,
  },
  {
    version: 16,
    name: "start attempts of work resumed at start-up",
    // A batch remembers at which committed request (`attempt_progress`) it was last started
    // and how many starts in a row found it there (`attempts`), written before its work; a
    // file left PROCESSING counts its probes the same way. Work that stopped the process again
    // and again is then ended FAILED at the next start instead of being run into another crash.
    sql: `
      ALTER TABLE batches ADD COLUMN attempt_progress INTEGER;
      ALTER TABLE batches ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE files ADD COLUMN probe_attempts INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 17,
    name: "what a file uploaded through the gateway names, as a batch's input",
    // resource_owners.mentions_json: every resource the file's JSONL lines name, read while the
    // file passed through (NULL: not read, so no batch runs from it through the gateway).
    // upstream_upload_sessions.scan_json: that reading, carried from one chunk to the next.
    sql: `
      ALTER TABLE resource_owners ADD COLUMN mentions_json TEXT;
      ALTER TABLE upstream_upload_sessions ADD COLUMN scan_json TEXT;
    `,
  },
  {
    version: 18,
    name: "interactions and their stream events",
    // An interaction keeps its canonical request (to run it, and again after a restart), its
    // own turns of the conversation (input and output, read by the interactions that continue
    // it) and its result; every event of its stream is kept in order, so a stream can resume.
    sql: `
      CREATE TABLE interactions (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        previous_id TEXT,
        model TEXT,
        agent TEXT,
        status TEXT NOT NULL,
        background INTEGER NOT NULL,
        request_json TEXT NOT NULL,
        input_contents_json TEXT NOT NULL,
        output_contents_json TEXT,
        result_json TEXT,
        seed INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        event_count INTEGER NOT NULL DEFAULT 0,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      );
      CREATE INDEX interactions_owner ON interactions (owner_id, create_time);
      CREATE INDEX interactions_status ON interactions (status, create_time);
      CREATE TABLE interaction_events (
        interaction_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        event_json TEXT NOT NULL,
        PRIMARY KEY (interaction_id, position)
      );
    `,
  },
  {
    version: 19,
    name: "conversation ids per owner",
    // A conversation's id was its primary key, so one owner's id was taken for every other
    // (and a create told them so). The key becomes the row's own `internal_id`, which its
    // messages refer to (the renames carry the foreign key and indexes along on both engines),
    // and the id the owner knows it by is unique per owner. Existing rows keep their id as
    // both.
    sql: `
      ALTER TABLE conversations RENAME COLUMN id TO internal_id;
      ALTER TABLE conversations ADD COLUMN id TEXT NOT NULL DEFAULT '';
      UPDATE conversations SET id = internal_id;
      CREATE UNIQUE INDEX conversations_owner_id ON conversations (owner_id, id);
      ALTER TABLE conversation_messages RENAME COLUMN conversation_id TO conversation_internal_id;
    `,
  },
  {
    version: 20,
    name: "answers' raw exchanges; messages found by id; settings presets",
    // The raw exchange of an answer generated on the server (request, each chunk with its
    // time, the error), size-capped by its writer, for the studio's inspector after a reload
    // or on another device. Read only by that inspector, never with the message itself.
    // Message ids are random and kept by export and import: an import finds by them the
    // conversations the owner already has. A settings preset is a named set of chat settings
    // a person reuses; the one marked default starts their new chats.
    sql: `
      ALTER TABLE conversation_messages ADD COLUMN trace_json TEXT;
      CREATE INDEX conversation_messages_id ON conversation_messages (id);
      CREATE TABLE settings_presets (
        owner_id TEXT NOT NULL,
        name TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        is_default INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (owner_id, name)
      );
    `,
  },
  {
    version: 21,
    name: "usage ledger per day, request logs and their settings, audit events",
    // usage_daily: one row per UTC day, workspace, person, key and model, each answer's usage
    // added to it (never one row per answer: a year of a thousand keys stays a million rows).
    // '' stands for no person (single-person modes, STUDIO_API_KEYS) and no key (a browser
    // session). request_logs: the exchanges of keys and people that asked for logging, each as
    // a recorded-exchanges line, until expires_at. log_settings: who asked ("key:{id}",
    // "person:{id}"). audit_events: admin actions and key changes. usage_recorded: answers
    // recorded once though seen many times (an upstream batch's, read at every poll).
    sql: `
      CREATE TABLE usage_daily (
        day TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        person_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        model TEXT NOT NULL,
        requests INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        thought_tokens INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL,
        nanodollars INTEGER NOT NULL,
        PRIMARY KEY (day, owner_id, person_id, key_id, model)
      );
      CREATE INDEX usage_daily_person_day ON usage_daily (person_id, day);
      CREATE INDEX usage_daily_key_day ON usage_daily (key_id, day);
      CREATE TABLE request_logs (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        person_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        operation TEXT NOT NULL,
        model TEXT NOT NULL,
        status INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL,
        nanodollars INTEGER NOT NULL,
        exchange_json TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX request_logs_at ON request_logs (at, id);
      CREATE INDEX request_logs_person_at ON request_logs (person_id, at, id);
      CREATE INDEX request_logs_key_at ON request_logs (key_id, at, id);
      CREATE INDEX request_logs_expiry ON request_logs (expires_at);
      CREATE TABLE log_settings (
        subject TEXT PRIMARY KEY,
        retention_days INTEGER NOT NULL,
        include_media INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE audit_events (
        id TEXT PRIMARY KEY,
        at INTEGER NOT NULL,
        actor_id TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        details_json TEXT NOT NULL
      );
      CREATE INDEX audit_events_at ON audit_events (at, id);
      CREATE TABLE usage_recorded (
        name TEXT PRIMARY KEY,
        recorded_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 22,
    name: "usage rollups: per day and model, and per person, key and model over aligned spans",
    // Kept beside usage_daily by its writer, in the same transaction, so a report of everyone
    // reads a few thousand rows whatever its range (lib/db/stores/usage-rollup.ts):
    // usage_daily_models sums the ledger per day and model; usage_spans per person, key and
    // model over spans of 2, 4, ... 256 days, a span of S days starting on a day whose number
    // since 1970-01-01 is a multiple of S. Both filled here from the ledger as it stands (each
    // span length from the one before, so a million ledger rows are read once); the engines
    // differ only in how a day's span start is computed. usage_awaited: answers whose
    // usage is recorded by the first read that finds them ended (a background interaction the
    // upstream runs), until then or their expiry.
    sql: `
      CREATE TABLE usage_daily_models (
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        requests INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        thought_tokens INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL,
        nanodollars INTEGER NOT NULL,
        PRIMARY KEY (day, model)
      );
      CREATE TABLE usage_spans (
        span INTEGER NOT NULL,
        first_day TEXT NOT NULL,
        person_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        model TEXT NOT NULL,
        requests INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        cached_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        thought_tokens INTEGER NOT NULL,
        total_tokens INTEGER NOT NULL,
        nanodollars INTEGER NOT NULL,
        PRIMARY KEY (span, first_day, person_id, key_id, model)
      );
      INSERT INTO usage_daily_models
        SELECT day, model, SUM(requests), SUM(prompt_tokens), SUM(cached_tokens),
          SUM(output_tokens), SUM(thought_tokens), SUM(total_tokens), SUM(nanodollars)
        FROM usage_daily GROUP BY day, model;
      ${usageSpansFill((day, span) => `date(${day}, '-' || (CAST(julianday(${day}) - 2440587.5 AS INTEGER) % ${span}) || ' days')`)}
      CREATE TABLE usage_awaited (
        name TEXT PRIMARY KEY,
        expires_at INTEGER NOT NULL
      );
    `,
    postgres: `
      CREATE TABLE usage_daily_models (
        day TEXT NOT NULL,
        model TEXT NOT NULL,
        requests BIGINT NOT NULL,
        prompt_tokens BIGINT NOT NULL,
        cached_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        thought_tokens BIGINT NOT NULL,
        total_tokens BIGINT NOT NULL,
        nanodollars BIGINT NOT NULL,
        PRIMARY KEY (day, model)
      );
      CREATE TABLE usage_spans (
        span BIGINT NOT NULL,
        first_day TEXT NOT NULL,
        person_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        model TEXT NOT NULL,
        requests BIGINT NOT NULL,
        prompt_tokens BIGINT NOT NULL,
        cached_tokens BIGINT NOT NULL,
        output_tokens BIGINT NOT NULL,
        thought_tokens BIGINT NOT NULL,
        total_tokens BIGINT NOT NULL,
        nanodollars BIGINT NOT NULL,
        PRIMARY KEY (span, first_day, person_id, key_id, model)
      );
      INSERT INTO usage_daily_models
        SELECT day, model, SUM(requests), SUM(prompt_tokens), SUM(cached_tokens),
          SUM(output_tokens), SUM(thought_tokens), SUM(total_tokens), SUM(nanodollars)
        FROM usage_daily GROUP BY day, model;
      ${usageSpansFill((day, span) => `to_char(CAST(${day} AS date) - (CAST(${day} AS date) - DATE '1970-01-01') % ${span}, 'YYYY-MM-DD')`)}
      CREATE TABLE usage_awaited (
        name TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 23,
    name: "interactions' long strings kept in pieces",
    // An interaction's long strings (a speech answer's audio: tens of megabytes of base64) are
    // kept out of its JSON columns, as pieces written and read a few at a time, so neither a
    // write nor a read holds the request's thread for the whole; each JSON column lists where
    // its long strings go (`*_texts`, null when it has none). The stream events and the result
    // share the pieces of the same audio.
    sql: `
      CREATE TABLE interaction_pieces (
        interaction_id TEXT NOT NULL,
        text_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        piece TEXT NOT NULL,
        PRIMARY KEY (interaction_id, text_id, seq)
      );
      ALTER TABLE interactions ADD COLUMN result_texts TEXT;
      ALTER TABLE interactions ADD COLUMN output_contents_texts TEXT;
      ALTER TABLE interaction_events ADD COLUMN event_texts TEXT;
    `,
  },
];
