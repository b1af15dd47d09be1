import "server-only";
import { openDatabase, type Db } from "@/lib/db/database";
import { serverEnv } from "../config/env";

const holder = globalThis as typeof globalThis & { genstudioDatabase?: Db };

/** The process's database handle; one per process, surviving hot reload in development. */
export function database(): Db {
  holder.genstudioDatabase ??= openDatabase(serverEnv().dataDir);
  return holder.genstudioDatabase;
}
