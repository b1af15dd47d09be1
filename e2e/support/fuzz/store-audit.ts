/**
 * Audits a studio's DATA_DIR straight from disk (SQLite, or PostgreSQL for several instances,
 * and the file store), for the fault specs: the database passes SQLite's own checks, every file marked ACTIVE has exactly the
 * bytes its row describes, and no bytes lie around that nothing refers to.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

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

interface FileRow {
  id: string;
  state: string;
  size_bytes: number;
  sha256_hash: string;
}
interface SessionRow {
  id: string;
  file_id: string;
  received_size: number;
  status: string;
}
type StoreCounts = Omit<StoreAudit["counts"], "files" | "activeFiles" | "activeSessions">;

/** The checks of the bytes under `dataDir` against the rows of the database, whichever it is. */
function auditBytes(
  dataDir: string,
  files: FileRow[],
  sessions: SessionRow[],
  counts: StoreCounts,
): Omit<StoreAudit, "integrity" | "foreignKeyProblems"> {
  const active = sessions.filter((session) => session.status === "active");
  const badActiveFiles: string[] = [];
  for (const file of files.filter((row) => row.state === "ACTIVE")) {
    const target = path.join(dataDir, "files", file.id);
    if (!fs.existsSync(target)) {
      badActiveFiles.push(`${file.id}: no bytes`);
      continue;
    }
    const bytes = fs.readFileSync(target);
    if (bytes.length !== Number(file.size_bytes))
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
      return size < Number(session.received_size);
    })
    .map((session) => session.id);
  return {
    badActiveFiles,
    orphanFiles,
    orphanParts,
    shortSessions,
    counts: {
      files: files.length,
      activeFiles: files.filter((file) => file.state === "ACTIVE").length,
      activeSessions: active.length,
      ...counts,
    },
  };
}

const FILES_QUERY = "SELECT id, state, size_bytes, sha256_hash FROM files";
const SESSIONS_QUERY = "SELECT id, file_id, received_size, status FROM upload_sessions";
const COUNTS_QUERY = `SELECT (SELECT count(*) FROM cached_contents) AS caches,
  (SELECT count(*) FROM conversations) AS conversations,
  (SELECT count(*) FROM conversation_messages) AS messages`;

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
    const files = db.prepare(FILES_QUERY).all() as FileRow[];
    const sessions = db.prepare(SESSIONS_QUERY).all() as SessionRow[];
    const counts = db.prepare(COUNTS_QUERY).get() as StoreCounts;
    return { integrity, foreignKeyProblems, ...auditBytes(dataDir, files, sessions, counts) };
  } finally {
    db.close();
  }
}

/**
 * Audits a shared directory whose rows live in PostgreSQL (several instances). PostgreSQL has
 * no integrity pragma: a committed transaction is whole, so `integrity` reports "ok" when the
 * tables can be read, and foreign keys are enforced as rows are written.
 */
export async function auditSharedStore(dataDir: string, databaseUrl: string): Promise<StoreAudit> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const files = (await client.query<FileRow>(FILES_QUERY)).rows;
    const sessions = (await client.query<SessionRow>(SESSIONS_QUERY)).rows;
    const row = (await client.query(COUNTS_QUERY)).rows[0] as Record<keyof StoreCounts, string>;
    const counts = {
      caches: Number(row.caches),
      conversations: Number(row.conversations),
      messages: Number(row.messages),
    };
    return {
      integrity: "ok",
      foreignKeyProblems: 0,
      ...auditBytes(dataDir, files, sessions, counts),
    };
  } finally {
    await client.end();
  }
}
