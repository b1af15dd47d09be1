import "server-only";
import type { SqlDatabase } from "./sql-database";
import { ApiKeyStore } from "./stores/api-key-store";
import { AuthStateStore } from "./stores/auth-state-store";
import { BatchStore } from "./stores/batch-store";
import { CacheStore } from "./stores/cache-store";
import { ConversationStore } from "./stores/conversation-store";
import { FileStore } from "./stores/file-store";
import { FileSearchStoreRecords } from "./stores/file-search-store-records";
import { ImplicitCacheStore } from "./stores/implicit-cache-store";
import { InteractionStore } from "./stores/interaction-store";
import { LimitStore } from "./stores/limit-store";
import { OwnershipStore } from "./stores/ownership-store";
import { PeopleStore } from "./stores/people-store";
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
  /** Local engine: fingerprints of recent prompt prefixes, for implicit caching. */
  implicitCaches: ImplicitCacheStore;
  /** People, their invitations and password resets. */
  people: PeopleStore;
  /** API keys people make in the studio. */
  apiKeys: ApiKeyStore;
  /** The version caches of people and keys check, and the secret keys are hashed with. */
  authState: AuthStateStore;
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
    implicitCaches: new ImplicitCacheStore(database),
    people: new PeopleStore(database),
    apiKeys: new ApiKeyStore(database),
    authState: new AuthStateStore(database),
    interactions: new InteractionStore(database),
  };
}
