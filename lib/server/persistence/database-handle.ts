import "server-only";
import { createDataStores, type DataStores } from "@/lib/db/data-stores";
import { openDatabase } from "@/lib/db/open-database";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";

const holder = globalThis as typeof globalThis & { genstudioStores?: Promise<DataStores> };

/**
 * The process's stores over its database (PostgreSQL with DATABASE_URL, else SQLite under
 * DATA_DIR), opened and migrated once; one per process, surviving hot reload in development.
 */
export function dataStores(): Promise<DataStores> {
  if (!holder.genstudioStores) {
    const env = serverEnv();
    const opening = openDatabase({
      databaseUrl: env.databaseUrl,
      dataDir: env.dataDir,
      onError: (message, error) => logger.warn(message, error),
    }).then((database) => createDataStores(database));
    // A failed open is not kept: the next caller tries again.
    opening.catch(() => {
      if (holder.genstudioStores === opening) holder.genstudioStores = undefined;
    });
    holder.genstudioStores = opening;
  }
  return holder.genstudioStores;
}
