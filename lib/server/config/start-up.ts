import "server-only";
import { ConfigurationError, serverEnv } from "./env";
import { database } from "../persistence/database-handle";
import { logger } from "./logger";

/** Validates configuration and prepares storage; exits the process on a configuration error. */
export function startServer(): void {
  try {
    const env = serverEnv();
    database();
    logger.info(
      `mode=${env.mode} data=${env.dataDir}` +
        (env.developmentDefaults
          ? " auth=development defaults (loopback only; studio key genstudio-dev-key)"
          : ""),
    );
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`[genstudio] ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
