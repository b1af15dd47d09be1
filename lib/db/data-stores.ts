import "server-only";
import type { SqlDatabase } from "./sql-database";
import { BatchStore } from "./stores/batch-store";
import { CacheStore } from "./stores/cache-store";
import { ConversationStore } from "./stores/conversation-store";
import { FileStore } from "./stores/file-store";
import { FileSearchStoreRecords } from "./stores/file-search-store-records";
import { InteractionStore } from "./stores/interaction-store";
import { LimitStore } from "./stores/limit-store";
import { OwnershipStore } from "./stores/ownership-store";
import { SessionStore } from "./stores/session-store";
import { UpstreamUploadStore } from "./stores/upstream-upload-store";

/**
 * Every store of the studio over one database: the one data-access layer. Each store keeps
 * all the SQL of its tables; the database (SQLite or PostgreSQL) is chosen once at start
 * (lib/db/open-database.ts).
 */
export interface DataStores {
  database: SqlDatabase;
  sessions: SessionStore;
  conversations: ConversationStore;
  /** Request rate, sign-in attempts and open streams, shared by every instance. */
  limits: LimitStore;
  /** Gateway mode: who created which upstream file and cache. */
  ownership: OwnershipStore;
  /** Gateway mode: our upload ids → the upstream's session URLs. */
  upstreamUploads: UpstreamUploadStore;
  /** Local engine: files and resumable upload sessions. */
  files: FileStore;
  /** Local engine: cached contents. */
  caches: CacheStore;
  /** Local engine: batches and their inline requests. */
  batches: BatchStore;
  /** Local engine: file search stores, their documents, uploads and operations. */
  fileSearchStores: FileSearchStoreRecords;
  /** Local engine: interactions and the events of their streams. */
  interactions: InteractionStore;
}

export function createDataStores(database: SqlDatabase, now: () => number = Date.now): DataStores {
  const files = new FileStore(database);
  return {
    database,
    sessions: new SessionStore(database),
    conversations: new ConversationStore(database),
    limits: new LimitStore(database),
    ownership: new OwnershipStore(database, now),
    upstreamUploads: new UpstreamUploadStore(database, now),
    files,
    caches: new CacheStore(database),
    batches: new BatchStore(database, files),
    fileSearchStores: new FileSearchStoreRecords(database),
    interactions: new InteractionStore(database),
  };
}
