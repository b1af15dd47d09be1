import "server-only";
import { describeDatabaseUrl } from "@/lib/db/open-database";
import { DatabaseStartError } from "@/lib/db/sql-database";
import { ConfigurationError, serverEnv } from "./env";
import { dataStores } from "../persistence/database-handle";
import { logger } from "./logger";

/**
 * Validates configuration and opens the database (running its migrations) before traffic;
 * exits the process with a message saying what to fix when either is wrong.
 */
export async function startServer(): Promise<void> {
  try {
    const env = serverEnv();
    await dataStores();
    logger.info(
      `mode=${env.mode} data=${env.dataDir} database=${env.databaseUrl === null ? "sqlite" : describeDatabaseUrl(env.databaseUrl)}` +
        (env.developmentDefaults
          ? " auth=development defaults (loopback only; studio key genstudio-dev-key)"
          : ""),
    );
  } catch (error) {
    // By name too: the database may have been opened by another of Next's module graphs.
    if (
      error instanceof ConfigurationError ||
      error instanceof DatabaseStartError ||
      (error instanceof Error && error.name === "DatabaseStartError")
    ) {
      process.stderr.write(`[genstudio] ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
