/**
 * Every statement of the local engine's file search stores (migration 13): the stores, their
 * documents (with the text retrieval searches, read only for a search), the upload sessions
 * that will make a document, and the operations an upload or import answered. Times are
 * epoch milliseconds.
 */
import type {
  CustomMetadata,
  DocumentOptions,
  DocumentState,
} from "@/lib/gemini/file-search-types";
import type { SqlDatabase } from "../sql-database";
import { keysetPageSql } from "./keyset-page-sql";

export interface StoreRecord {
  id: string;
  ownerId: string;
  displayName: string | null;
  embeddingModel: string;
  createTime: number;
  updateTime: number;
}

/** A store with the counts of its documents. */
export interface StoreSummary extends StoreRecord {
  activeDocuments: number;
  sizeBytes: number;
}

export interface DocumentRecord {
  storeId: string;
  id: string;
  displayName: string | null;
  mimeType: string;
  sizeBytes: number;
  customMetadata: CustomMetadata[] | null;
  state: DocumentState;
  createTime: number;
  updateTime: number;
}

/** A document's text, for retrieval. */
export interface SearchableDocument {
  storeId: string;
  id: string;
  displayName: string | null;
  text: string;
}

interface StoreRow {
  id: string;
  owner_id: string;
  display_name: string | null;
  embedding_model: string;
  create_time: number;
  update_time: number;
  active_documents?: number;
  size_bytes?: number | null;
}

interface DocumentRow {
  store_id: string;
  id: string;
  display_name: string | null;
  mime_type: string;
  size_bytes: number;
  custom_metadata_json: string | null;
  state: string;
  create_time: number;
  update_time: number;
}

const STORE_SUMMARY = `SELECT s.id, s.owner_id, s.display_name, s.embedding_model, s.create_time, s.update_time,
  (SELECT COUNT(*) FROM file_search_documents d WHERE d.store_id = s.id AND d.state = 'STATE_ACTIVE') AS active_documents,
  (SELECT SUM(d.size_bytes) FROM file_search_documents d WHERE d.store_id = s.id) AS size_bytes
  FROM file_search_stores s`;

const DOCUMENT_COLUMNS =
  "store_id, id, display_name, mime_type, size_bytes, custom_metadata_json, state, create_time, update_time";

function storeFromRow(row: StoreRow): StoreSummary {
  return {
    id: row.id,
    ownerId: row.owner_id,
    displayName: row.display_name,
    embeddingModel: row.embedding_model,
    createTime: Number(row.create_time),
    updateTime: Number(row.update_time),
    activeDocuments: Number(row.active_documents ?? 0),
    sizeBytes: Number(row.size_bytes ?? 0),
  };
}

function documentFromRow(row: DocumentRow): DocumentRecord {
  return {
    storeId: row.store_id,
    id: row.id,
    displayName: row.display_name,
    mimeType: row.mime_type,
    sizeBytes: Number(row.size_bytes),
    customMetadata: row.custom_metadata_json
      ? (JSON.parse(row.custom_metadata_json) as CustomMetadata[])
      : null,
    state: row.state as DocumentState,
    createTime: Number(row.create_time),
    updateTime: Number(row.update_time),
  };
}

export class FileSearchStoreRecords {
  constructor(private readonly database: SqlDatabase) {}

  async insertStore(record: StoreRecord): Promise<void> {
    await this.database.run(
      `INSERT INTO file_search_stores (id, owner_id, display_name, embedding_model, create_time, update_time)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [
        record.id,
        record.ownerId,
        record.displayName,
        record.embeddingModel,
        record.createTime,
        record.updateTime,
      ],
    );
  }

  async getStore(id: string): Promise<StoreSummary | undefined> {
    const row = await this.database.get<StoreRow>(`${STORE_SUMMARY} WHERE s.id = ?`, [id]);
    return row ? storeFromRow(row) : undefined;
  }

  /** One page of an owner's stores, oldest first (as the service lists them), after `after`. */
  async listStores(
    ownerId: string,
    limit: number,
    after: { createTime: number; id: string } | null,
  ): Promise<StoreSummary[]> {
    const page = keysetPageSql(after, limit, { direction: "oldest first", table: "s." });
    const rows = await this.database.all<StoreRow>(
      `${STORE_SUMMARY} WHERE s.owner_id = ?${page.condition} ${page.order}`,
      [ownerId, ...page.params],
    );
    return rows.map(storeFromRow);
  }

  /**
   * Deletes a store with its documents and operations; false when there was none. Its open
   * uploads keep their mapping (swept with their sessions), so a late final chunk finds the
   * store gone instead of leaving a plain file.
   */
  async deleteStore(id: string): Promise<boolean> {
    return this.database.transaction(async (database) => {
      for (const table of ["file_search_documents", "file_search_operations"])
        await database.run(`DELETE FROM ${table} WHERE store_id = ?`, [id]);
      return (await database.run("DELETE FROM file_search_stores WHERE id = ?", [id])).changes > 0;
    });
  }

  async countDocuments(storeId: string): Promise<number> {
    const row = await this.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM file_search_documents WHERE store_id = ?",
      [storeId],
    );
    return Number(row?.count ?? 0);
  }

  async insertDocument(record: DocumentRecord, text: string): Promise<void> {
    await this.database.run(
      `INSERT INTO file_search_documents (store_id, id, display_name, mime_type, size_bytes, text, custom_metadata_json, state, create_time, update_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        record.storeId,
        record.id,
        record.displayName,
        record.mimeType,
        record.sizeBytes,
        text,
        record.customMetadata ? JSON.stringify(record.customMetadata) : null,
        record.state,
        record.createTime,
        record.updateTime,
      ],
    );
    await this.database.run("UPDATE file_search_stores SET update_time = ? WHERE id = ?", [
      record.updateTime,
      record.storeId,
    ]);
  }

  async getDocument(storeId: string, id: string): Promise<DocumentRecord | undefined> {
    const row = await this.database.get<DocumentRow>(
      `SELECT ${DOCUMENT_COLUMNS} FROM file_search_documents WHERE store_id = ? AND id = ?`,
      [storeId, id],
    );
    return row ? documentFromRow(row) : undefined;
  }

  /** One page of a store's documents, newest first, after `after`. */
  async listDocuments(
    storeId: string,
    limit: number,
    after: { createTime: number; id: string } | null,
  ): Promise<DocumentRecord[]> {
    const page = keysetPageSql(after, limit);
    const rows = await this.database.all<DocumentRow>(
      `SELECT ${DOCUMENT_COLUMNS} FROM file_search_documents WHERE store_id = ?${page.condition} ${page.order}`,
      [storeId, ...page.params],
    );
    return rows.map(documentFromRow);
  }

  async deleteDocument(storeId: string, id: string): Promise<boolean> {
    return (
      (
        await this.database.run("DELETE FROM file_search_documents WHERE store_id = ? AND id = ?", [
          storeId,
          id,
        ])
      ).changes > 0
    );
  }

  /** The active documents' texts of the given stores, for retrieval. */
  async searchableDocuments(storeIds: readonly string[]): Promise<SearchableDocument[]> {
    if (storeIds.length === 0) return [];
    const rows = await this.database.all<{
      store_id: string;
      id: string;
      display_name: string | null;
      text: string;
    }>(
      `SELECT store_id, id, display_name, text FROM file_search_documents
       WHERE state = 'STATE_ACTIVE' AND store_id IN (${storeIds.map(() => "?").join(", ")})
       ORDER BY create_time, id`,
      [...storeIds],
    );
    return rows.map((row) => ({
      storeId: row.store_id,
      id: row.id,
      displayName: row.display_name,
      text: row.text,
    }));
  }

  async insertUpload(
    uploadId: string,
    storeId: string,
    options: DocumentOptions,
    now: number,
  ): Promise<void> {
    await this.database.run(
      "INSERT INTO file_search_uploads (upload_id, store_id, options_json, created_at) VALUES (?, ?, ?, ?)",
      [uploadId, storeId, JSON.stringify(options), now],
    );
  }

  async getUpload(
    uploadId: string,
  ): Promise<{ storeId: string; options: DocumentOptions } | undefined> {
    const row = await this.database.get<{ store_id: string; options_json: string }>(
      "SELECT store_id, options_json FROM file_search_uploads WHERE upload_id = ?",
      [uploadId],
    );
    return row
      ? { storeId: row.store_id, options: JSON.parse(row.options_json) as DocumentOptions }
      : undefined;
  }

  async deleteUpload(uploadId: string): Promise<void> {
    await this.database.run("DELETE FROM file_search_uploads WHERE upload_id = ?", [uploadId]);
  }

  /** Upload mappings older than `before` (their sessions have expired). */
  async deleteUploadsBefore(before: number): Promise<number> {
    return (
      await this.database.run("DELETE FROM file_search_uploads WHERE created_at < ?", [before])
    ).changes;
  }

  async insertOperation(
    name: string,
    storeId: string,
    response: unknown,
    now: number,
  ): Promise<void> {
    await this.database.run(
      "INSERT INTO file_search_operations (name, store_id, response_json, create_time) VALUES (?, ?, ?, ?)",
      [name, storeId, JSON.stringify(response), now],
    );
  }

  async getOperation(name: string): Promise<{ storeId: string; response: unknown } | undefined> {
    const row = await this.database.get<{ store_id: string; response_json: string }>(
      "SELECT store_id, response_json FROM file_search_operations WHERE name = ?",
      [name],
    );
    return row ? { storeId: row.store_id, response: JSON.parse(row.response_json) } : undefined;
  }
}
