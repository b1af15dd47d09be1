/**
 * Audits a studio's DATA_DIR straight from disk (SQLite and the file store), for the fault
 * specs: the database passes SQLite's own checks, every file marked ACTIVE has exactly the
 * bytes its row describes, and no bytes lie around that nothing refers to.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export interface StoreAudit {
  /** `PRAGMA integrity_check`: "ok" when the database is sound. */
  integrity: string;
  foreignKeyProblems: number;
  /** ACTIVE files whose bytes are missing, of the wrong size or the wrong hash. */
  badActiveFiles: string[];
  /** Entries of `files/` that no file row (or session being finalized) owns. */
  orphanFiles: string[];
  /** Entries of `uploads/` that are not the partial file of an active upload session. */
  orphanParts: string[];
  /** Active upload sessions whose partial file is shorter than the bytes acknowledged. */
  shortSessions: string[];
  counts: {
    files: number;
    activeFiles: number;
    activeSessions: number;
    caches: number;
    conversations: number;
    messages: number;
  };
}

/** The service's sha256Hash: base64 of the lower-case hex digest string. */
export function serviceHash(bytes: Uint8Array): string {
  return Buffer.from(createHash("sha256").update(bytes).digest("hex"), "utf8").toString("base64");
}

function listing(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

/**
 * Audits `dataDir`. With the server stopped this also runs SQLite's recovery of the WAL, as
 * the next start would; with it running, pass `readonly`.
 */
export function auditStore(
  dataDir: string,
  { readonly = false }: { readonly?: boolean } = {},
): StoreAudit {
  const db = new Database(path.join(dataDir, "genstudio.sqlite"), {
    readonly,
    fileMustExist: true,
  });
  try {
    const integrity = (db.pragma("integrity_check") as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .join("; ");
    const foreignKeyProblems = (db.pragma("foreign_key_check") as unknown[]).length;
    const files = db.prepare("SELECT id, state, size_bytes, sha256_hash FROM files").all() as {
      id: string;
      state: string;
      size_bytes: number;
      sha256_hash: string;
    }[];
    const sessions = db
      .prepare("SELECT id, file_id, received_size, status FROM upload_sessions")
      .all() as { id: string; file_id: string; received_size: number; status: string }[];
    const active = sessions.filter((session) => session.status === "active");
    const badActiveFiles: string[] = [];
    for (const file of files.filter((row) => row.state === "ACTIVE")) {
      const target = path.join(dataDir, "files", file.id);
      if (!fs.existsSync(target)) {
        badActiveFiles.push(`${file.id}: no bytes`);
        continue;
      }
      const bytes = fs.readFileSync(target);
      if (bytes.length !== file.size_bytes)
        badActiveFiles.push(`${file.id}: ${bytes.length} bytes, row says ${file.size_bytes}`);
      else if (serviceHash(bytes) !== file.sha256_hash)
        badActiveFiles.push(`${file.id}: bytes do not match sha256Hash`);
    }
    const knownFiles = new Set([
      ...files.map((file) => file.id),
      ...active.map((session) => session.file_id),
    ]);
    const orphanFiles = listing(path.join(dataDir, "files")).filter(
      (entry) => !knownFiles.has(entry),
    );
    const openParts = new Set(active.map((session) => `${session.file_id}.part`));
    const orphanParts = listing(path.join(dataDir, "uploads")).filter(
      (entry) => !openParts.has(entry),
    );
    const shortSessions = active
      .filter((session) => {
        const part = path.join(dataDir, "uploads", `${session.file_id}.part`);
        const whole = path.join(dataDir, "files", session.file_id);
        // A crash between the rename and the commit leaves the whole file under files/; the next touch moves it back.
        const size = fs.existsSync(part)
          ? fs.statSync(part).size
          : fs.existsSync(whole)
            ? fs.statSync(whole).size
            : 0;
        return size < session.received_size;
      })
      .map((session) => session.id);
    const count = (sql: string) => (db.prepare(sql).get() as { count: number }).count;
    return {
      integrity,
      foreignKeyProblems,
      badActiveFiles,
      orphanFiles,
      orphanParts,
      shortSessions,
      counts: {
        files: files.length,
        activeFiles: files.filter((file) => file.state === "ACTIVE").length,
        activeSessions: active.length,
        caches: count("SELECT count(*) AS count FROM cached_contents"),
        conversations: count("SELECT count(*) AS count FROM conversations"),
        messages: count("SELECT count(*) AS count FROM conversation_messages"),
      },
    };
  } finally {
    db.close();
  }
}
