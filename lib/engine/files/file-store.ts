/**
 * SQLite rows of the files API (migration 2): uploaded files and resumable upload sessions.
 * Times are epoch milliseconds. Only metadata lives here; bytes live under DATA_DIR.
 */
import type { Db } from "@/lib/db/database";

export type StoredFileState = "PROCESSING" | "ACTIVE" | "FAILED";

export interface FileRecord {
  id: string;
  ownerId: string;
  displayName: string | null;
  mimeType: string;
  sizeBytes: number;
  /** base64 of the lower-case hex SHA-256 digest, as the service spells it. */
  sha256Hash: string;
  state: StoredFileState;
  error: { code: number; message: string } | null;
  /** What the lifecycle step learnt about the media (JSON of ProbedMedia); null until then. */
  probe: unknown;
  createTime: number;
  updateTime: number;
  expireTime: number;
}

export type UploadSessionStatus = "active" | "final" | "cancelled";

export interface UploadSessionRecord {
  id: string;
  ownerId: string;
  /** The id the file gets once finalized; also names the partial bytes on disk. */
  fileId: string;
  displayName: string | null;
  mimeType: string;
  declaredSize: number;
  receivedSize: number;
  status: UploadSessionStatus;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
}

interface FileRow {
  id: string;
  owner_id: string;
  display_name: string | null;
  mime_type: string;
  size_bytes: number;
  sha256_hash: string;
  state: StoredFileState;
  error_json: string | null;
  probe_json: string | null;
  create_time: number;
  update_time: number;
  expire_time: number;
}

interface SessionRow {
  id: string;
  owner_id: string;
  file_id: string;
  display_name: string | null;
  mime_type: string;
  declared_size: number;
  received_size: number;
  status: UploadSessionStatus;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

function fileFromRow(row: FileRow): FileRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    displayName: row.display_name,
    mimeType: row.mime_type,
    sizeBytes: row.size_bytes,
    sha256Hash: row.sha256_hash,
    state: row.state,
    error: row.error_json ? (JSON.parse(row.error_json) as FileRecord["error"]) : null,
    probe: row.probe_json ? (JSON.parse(row.probe_json) as unknown) : null,
    createTime: row.create_time,
    updateTime: row.update_time,
    expireTime: row.expire_time,
  };
}

function sessionFromRow(row: SessionRow): UploadSessionRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    fileId: row.file_id,
    displayName: row.display_name,
    mimeType: row.mime_type,
    declaredSize: row.declared_size,
    receivedSize: row.received_size,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  };
}

/** Position of a row in list order (newest first), as carried by page tokens. */
export interface ListPosition {
  createTime: number;
  id: string;
}

/** Prepared statements over the files and upload_sessions tables. */
export class FileStore {
  private readonly statements;

  constructor(private readonly db: Db) {
    this.statements = {
      insertFile: db.prepare(
        `INSERT INTO files (id, owner_id, display_name, mime_type, size_bytes, sha256_hash, state, error_json, probe_json, create_time, update_time, expire_time)
         VALUES (@id, @owner_id, @display_name, @mime_type, @size_bytes, @sha256_hash, @state, @error_json, @probe_json, @create_time, @update_time, @expire_time)`,
      ),
      getFile: db.prepare("SELECT * FROM files WHERE id = ?"),
      fileIdTaken: db.prepare(
        "SELECT 1 FROM files WHERE id = ? UNION ALL SELECT 1 FROM upload_sessions WHERE file_id = ? LIMIT 1",
      ),
      listFirst: db.prepare(
        `SELECT * FROM files WHERE owner_id = ? AND expire_time > ?
         ORDER BY create_time DESC, id DESC LIMIT ?`,
      ),
      listAfter: db.prepare(
        `SELECT * FROM files WHERE owner_id = ? AND expire_time > ? AND (create_time, id) < (?, ?)
         ORDER BY create_time DESC, id DESC LIMIT ?`,
      ),
      deleteFile: db.prepare("DELETE FROM files WHERE id = ?"),
      finishProcessing: db.prepare(
        "UPDATE files SET state = @state, error_json = @error_json, probe_json = @probe_json, update_time = @update_time WHERE id = @id AND state = 'PROCESSING'",
      ),
      processingIds: db.prepare(
        "SELECT id FROM files WHERE state = 'PROCESSING' ORDER BY create_time",
      ),
      expiredFileIds: db.prepare("SELECT id FROM files WHERE expire_time <= ?"),
      allFileIds: db.prepare("SELECT id FROM files"),
      storedBytes: db.prepare(
        "SELECT COALESCE(SUM(size_bytes), 0) AS total FROM files WHERE owner_id = ? AND expire_time > ?",
      ),
      reservedBytes: db.prepare(
        "SELECT COALESCE(SUM(declared_size), 0) AS total FROM upload_sessions WHERE owner_id = ? AND status = 'active' AND expires_at > ?",
      ),
      insertSession: db.prepare(
        `INSERT INTO upload_sessions (id, owner_id, file_id, display_name, mime_type, declared_size, received_size, status, created_at, updated_at, expires_at)
         VALUES (@id, @owner_id, @file_id, @display_name, @mime_type, @declared_size, @received_size, @status, @created_at, @updated_at, @expires_at)`,
      ),
      getSession: db.prepare("SELECT * FROM upload_sessions WHERE id = ?"),
      setReceived: db.prepare(
        "UPDATE upload_sessions SET received_size = ?, updated_at = ? WHERE id = ? AND status = 'active'",
      ),
      setStatus: db.prepare("UPDATE upload_sessions SET status = ?, updated_at = ? WHERE id = ?"),
      expiredSessions: db.prepare("SELECT * FROM upload_sessions WHERE expires_at <= ?"),
      deleteSession: db.prepare("DELETE FROM upload_sessions WHERE id = ?"),
      activeSessionsWithIdPrefix: db.prepare(
        "SELECT * FROM upload_sessions WHERE status = 'active' AND substr(id, 1, length(?)) = ?",
      ),
      activeSessionFileIds: db.prepare(
        "SELECT file_id FROM upload_sessions WHERE status = 'active'",
      ),
    };
  }

  insertFile(file: FileRecord): void {
    this.statements.insertFile.run({
      id: file.id,
      owner_id: file.ownerId,
      display_name: file.displayName,
      mime_type: file.mimeType,
      size_bytes: file.sizeBytes,
      sha256_hash: file.sha256Hash,
      state: file.state,
      error_json: file.error ? JSON.stringify(file.error) : null,
      probe_json:
        file.probe === null || file.probe === undefined ? null : JSON.stringify(file.probe),
      create_time: file.createTime,
      update_time: file.updateTime,
      expire_time: file.expireTime,
    });
  }

  getFile(id: string): FileRecord | undefined {
    const row = this.statements.getFile.get(id) as FileRow | undefined;
    return row ? fileFromRow(row) : undefined;
  }

  /** True when a file or an upload session already uses this file id. */
  isFileIdTaken(id: string): boolean {
    return this.statements.fileIdTaken.get(id, id) !== undefined;
  }

  /** One page of an owner's live files, newest first, starting after `after`. */
  listFiles(ownerId: string, now: number, limit: number, after: ListPosition | null): FileRecord[] {
    const rows = after
      ? this.statements.listAfter.all(ownerId, now, after.createTime, after.id, limit)
      : this.statements.listFirst.all(ownerId, now, limit);
    return (rows as FileRow[]).map(fileFromRow);
  }

  deleteFile(id: string): boolean {
    return this.statements.deleteFile.run(id).changes > 0;
  }

  /** Moves a PROCESSING file to its outcome; false when it is no longer PROCESSING (deleted meanwhile). */
  finishProcessing(
    id: string,
    outcome: { state: "ACTIVE" | "FAILED"; error: FileRecord["error"]; probe: unknown },
    now: number,
  ): boolean {
    return (
      this.statements.finishProcessing.run({
        id,
        state: outcome.state,
        error_json: outcome.error ? JSON.stringify(outcome.error) : null,
        probe_json:
          outcome.probe === null || outcome.probe === undefined
            ? null
            : JSON.stringify(outcome.probe),
        update_time: now,
      }).changes > 0
    );
  }

  processingFileIds(): string[] {
    return (this.statements.processingIds.all() as { id: string }[]).map((row) => row.id);
  }

  expiredFileIds(now: number): string[] {
    return (this.statements.expiredFileIds.all(now) as { id: string }[]).map((row) => row.id);
  }

  allFileIds(): Set<string> {
    return new Set((this.statements.allFileIds.all() as { id: string }[]).map((row) => row.id));
  }

  /** Bytes an owner holds or has reserved: live files plus the declared size of open upload sessions. */
  usedBytes(ownerId: string, now: number): number {
    const stored = (this.statements.storedBytes.get(ownerId, now) as { total: number }).total;
    const reserved = (this.statements.reservedBytes.get(ownerId, now) as { total: number }).total;
    return stored + reserved;
  }

  insertSession(session: UploadSessionRecord): void {
    this.statements.insertSession.run({
      id: session.id,
      owner_id: session.ownerId,
      file_id: session.fileId,
      display_name: session.displayName,
      mime_type: session.mimeType,
      declared_size: session.declaredSize,
      received_size: session.receivedSize,
      status: session.status,
      created_at: session.createdAt,
      updated_at: session.updatedAt,
      expires_at: session.expiresAt,
    });
  }

  getSession(id: string): UploadSessionRecord | undefined {
    const row = this.statements.getSession.get(id) as SessionRow | undefined;
    return row ? sessionFromRow(row) : undefined;
  }

  setReceived(id: string, receivedSize: number, now: number): void {
    this.statements.setReceived.run(receivedSize, now, id);
  }

  setSessionStatus(id: string, status: UploadSessionStatus, now: number): void {
    this.statements.setStatus.run(status, now, id);
  }

  expiredSessions(now: number): UploadSessionRecord[] {
    return (this.statements.expiredSessions.all(now) as SessionRow[]).map(sessionFromRow);
  }

  deleteSession(id: string): void {
    this.statements.deleteSession.run(id);
  }

  /** Open sessions whose id starts with `prefix`. */
  activeSessionsWithIdPrefix(prefix: string): UploadSessionRecord[] {
    return (this.statements.activeSessionsWithIdPrefix.all(prefix, prefix) as SessionRow[]).map(
      sessionFromRow,
    );
  }

  activeSessionFileIds(): Set<string> {
    return new Set(
      (this.statements.activeSessionFileIds.all() as { file_id: string }[]).map(
        (row) => row.file_id,
      ),
    );
  }

  /** Runs `work` in one SQLite transaction. */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }
}
