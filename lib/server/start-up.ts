import "server-only";
import { ConfigurationError, serverEnv } from "./env";
import { backend } from "./backend";
import { database } from "./database";
import { logger } from "./logger";

/** Validates configuration and prepares storage; exits the process on a configuration error. */
export function startServer(): void {
  try {
    const env = serverEnv();
    database();
    // Creating the backend now sweeps expired files and re-probes those left PROCESSING
    // before the first request, not during it.
    backend();
    logger.info(
      `mode=${env.mode} data=${env.dataDir}` +
        (env.developmentDefaults ? " auth=development defaults (loopback only; studio key genstudio-dev-key)" : ""),
    );
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`[genstudio] ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
