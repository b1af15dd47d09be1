/**
 * Every statement of the local engine's files API (migration 2): uploaded files and
 * resumable upload sessions. Times are epoch milliseconds. Only metadata lives here; the
 * bytes live under DATA_DIR (lib/engine/storage).
 */
import type { SqlDatabase, SqlExecutor } from "../sql-database";

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

const FILE_COLUMNS =
  "id, owner_id, display_name, mime_type, size_bytes, sha256_hash, state, error_json, probe_json, create_time, update_time, expire_time";
const SESSION_COLUMNS =
  "id, owner_id, file_id, display_name, mime_type, declared_size, received_size, status, created_at, updated_at, expires_at";

function fileValues(file: FileRecord): (string | number | null)[] {
  return [
    file.id,
    file.ownerId,
    file.displayName,
    file.mimeType,
    file.sizeBytes,
    file.sha256Hash,
    file.state,
    file.error ? JSON.stringify(file.error) : null,
    file.probe === null || file.probe === undefined ? null : JSON.stringify(file.probe),
    file.createTime,
    file.updateTime,
    file.expireTime,
  ];
}

function sessionValues(session: UploadSessionRecord): (string | number | null)[] {
  return [
    session.id,
    session.ownerId,
    session.fileId,
    session.displayName,
    session.mimeType,
    session.declaredSize,
    session.receivedSize,
    session.status,
    session.createdAt,
    session.updatedAt,
    session.expiresAt,
  ];
}

async function isFileIdTaken(executor: SqlExecutor, id: string): Promise<boolean> {
  const row = await executor.get(
    "SELECT 1 AS taken FROM files WHERE id = ? UNION ALL SELECT 1 AS taken FROM upload_sessions WHERE file_id = ? LIMIT 1",
    [id, id],
  );
  return row !== undefined;
}

/** Why a new upload session was not stored. */
export type ReservationRefusal = { reason: "quota"; usedBytes: number } | { reason: "name taken" };

export class FileStore {
  constructor(private readonly database: SqlDatabase) {}

  async insertFile(file: FileRecord): Promise<void> {
    await this.database.run(
      `INSERT INTO files (${FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      fileValues(file),
    );
  }

  async getFile(id: string): Promise<FileRecord | undefined> {
    const row = await this.database.get<FileRow>(`SELECT ${FILE_COLUMNS} FROM files WHERE id = ?`, [
      id,
    ]);
    return row ? fileFromRow(row) : undefined;
  }

  /** One page of an owner's live files, newest first, starting after `after`. */
  async listFiles(
    ownerId: string,
    now: number,
    limit: number,
    after: ListPosition | null,
  ): Promise<FileRecord[]> {
    const rows = after
      ? await this.database.all<FileRow>(
          `SELECT ${FILE_COLUMNS} FROM files WHERE owner_id = ? AND expire_time > ? AND (create_time, id) < (?, ?)
           ORDER BY create_time DESC, id DESC LIMIT ?`,
          [ownerId, now, after.createTime, after.id, limit],
        )
      : await this.database.all<FileRow>(
          `SELECT ${FILE_COLUMNS} FROM files WHERE owner_id = ? AND expire_time > ?
           ORDER BY create_time DESC, id DESC LIMIT ?`,
          [ownerId, now, limit],
        );
    return rows.map(fileFromRow);
  }

  async deleteFile(id: string): Promise<boolean> {
    return (await this.database.run("DELETE FROM files WHERE id = ?", [id])).changes > 0;
  }

  /** Moves a PROCESSING file to its outcome; false when it is no longer PROCESSING (deleted meanwhile). */
  async finishProcessing(
    id: string,
    outcome: { state: "ACTIVE" | "FAILED"; error: FileRecord["error"]; probe: unknown },
    now: number,
  ): Promise<boolean> {
    const result = await this.database.run(
      "UPDATE files SET state = ?, error_json = ?, probe_json = ?, update_time = ? WHERE id = ? AND state = 'PROCESSING'",
      [
        outcome.state,
        outcome.error ? JSON.stringify(outcome.error) : null,
        outcome.probe === null || outcome.probe === undefined
          ? null
          : JSON.stringify(outcome.probe),
        now,
        id,
      ],
    );
    return result.changes > 0;
  }

  async processingFileIds(): Promise<string[]> {
    const rows = await this.database.all<{ id: string }>(
      "SELECT id FROM files WHERE state = 'PROCESSING' ORDER BY create_time",
    );
    return rows.map((row) => row.id);
  }

  async expiredFileIds(now: number): Promise<string[]> {
    const rows = await this.database.all<{ id: string }>(
      "SELECT id FROM files WHERE expire_time <= ?",
      [now],
    );
    return rows.map((row) => row.id);
  }

  /** Bytes an owner holds or has reserved: live files plus the declared size of open upload sessions. */
  async usedBytes(
    ownerId: string,
    now: number,
    executor: SqlExecutor = this.database,
  ): Promise<number> {
    const row = await executor.get<{ stored: number; reserved: number }>(
      `SELECT
         (SELECT COALESCE(SUM(size_bytes), 0) FROM files WHERE owner_id = ? AND expire_time > ?) AS stored,
         (SELECT COALESCE(SUM(declared_size), 0) FROM upload_sessions WHERE owner_id = ? AND status = 'active' AND expires_at > ?) AS reserved`,
      [ownerId, now, ownerId, now],
    );
    return Number(row?.stored ?? 0) + Number(row?.reserved ?? 0);
  }

  /**
   * Stores a new upload session if the owner's quota has room for its declared size and its
   * file id is free; with no id requested, one is drawn with `drawFileId` until free. One
   * transaction, serialised per owner, so two instances cannot both spend the last room.
   */
  async reserveSession(
    session: UploadSessionRecord,
    options: { quotaBytes: number; requestedFileId?: string; drawFileId: () => string },
  ): Promise<ReservationRefusal | null> {
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(`quota:${session.ownerId}`);
      const used = await this.usedBytes(session.ownerId, session.createdAt, transaction);
      if (used + session.declaredSize > options.quotaBytes)
        return { reason: "quota", usedBytes: used };
      if (options.requestedFileId !== undefined) {
        if (await isFileIdTaken(transaction, options.requestedFileId))
          return { reason: "name taken" };
        session.fileId = options.requestedFileId;
      } else {
        do session.fileId = options.drawFileId();
        while (await isFileIdTaken(transaction, session.fileId));
      }
      await transaction.run(
        `INSERT INTO upload_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        sessionValues(session),
      );
      return null;
    });
  }

  async getSession(id: string): Promise<UploadSessionRecord | undefined> {
    const row = await this.database.get<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM upload_sessions WHERE id = ?`,
      [id],
    );
    return row ? sessionFromRow(row) : undefined;
  }

  async setReceived(id: string, receivedSize: number, now: number): Promise<void> {
    await this.database.run(
      "UPDATE upload_sessions SET received_size = ?, updated_at = ? WHERE id = ? AND status = 'active'",
      [receivedSize, now, id],
    );
  }

  async setSessionStatus(id: string, status: UploadSessionStatus, now: number): Promise<void> {
    await this.database.run("UPDATE upload_sessions SET status = ?, updated_at = ? WHERE id = ?", [
      status,
      now,
      id,
    ]);
  }

  /** Records the finished file and closes its session, in one transaction. */
  async finalizeSession(sessionId: string, file: FileRecord, now: number): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await transaction.run(
        `INSERT INTO files (${FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        fileValues(file),
      );
      await transaction.run(
        "UPDATE upload_sessions SET status = 'final', updated_at = ? WHERE id = ?",
        [now, sessionId],
      );
    });
  }

  async expiredSessions(now: number): Promise<UploadSessionRecord[]> {
    const rows = await this.database.all<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM upload_sessions WHERE expires_at <= ?`,
      [now],
    );
    return rows.map(sessionFromRow);
  }

  async deleteSession(id: string): Promise<void> {
    await this.database.run("DELETE FROM upload_sessions WHERE id = ?", [id]);
  }

  /** Open sessions whose id starts with `prefix`. */
  async activeSessionsWithIdPrefix(prefix: string): Promise<UploadSessionRecord[]> {
    const rows = await this.database.all<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM upload_sessions WHERE status = 'active' AND substr(id, 1, length(?)) = ?`,
      [prefix, prefix],
    );
    return rows.map(sessionFromRow);
  }

  /**
   * The session for one instance's request alone, until released or until that instance dies
   * (see SqlDatabase.tryClaim); null when another holds it.
   */
  claimSession(id: string): Promise<(() => Promise<void>) | null> {
    return this.database.tryClaim(`upload:${id}`);
  }

  /**
   * Ids whose bytes must stay in the files folder: every recorded file and every open
   * session's (finalizing ones included). One statement, so a finalize committed meanwhile
   * is seen on one side or the other.
   */
  async referencedFileIds(): Promise<Set<string>> {
    const rows = await this.database.all<{ id: string }>(
      "SELECT id FROM files UNION SELECT file_id AS id FROM upload_sessions WHERE status = 'active'",
    );
    return new Set(rows.map((row) => row.id));
  }

  async activeSessionFileIds(): Promise<Set<string>> {
    const rows = await this.database.all<{ file_id: string }>(
      "SELECT file_id FROM upload_sessions WHERE status = 'active'",
    );
    return new Set(rows.map((row) => row.file_id));
  }
}
