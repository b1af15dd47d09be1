import "server-only";
import { describeDatabaseUrl } from "@/lib/db/open-database";
import { DatabaseStartError } from "@/lib/db/sql-database";
import { ConfigurationError, serverEnv } from "../config/env";
import { dataStores } from "../persistence/database-handle";
import { requireModel } from "@/lib/engine/catalog";
import { warmUpGeneration } from "@/lib/engine/generate";
import { DEFAULT_MODEL } from "@/lib/studio/settings-model";
import { backend } from "./active-backend";
import { logger } from "../config/logger";
import { sessionBinding } from "../auth/sessions";
import { ensureFirstAdmin } from "../people/accounts";
import { startLogRetention } from "../logs/log-writer";

/**
 * Validates configuration and opens the database (running its migrations) before traffic,
 * and ends browser sessions that belong to another access code; exits the process with a
 * message saying what to fix when the configuration or the database is wrong.
 */
export async function startServer(): Promise<void> {
  try {
    const env = serverEnv();
    const stores = await dataStores();
    // Sessions opened with another access code (or none) than the one configured now end.
    const ended = await stores.sessions.deleteUnbound(sessionBinding());
    if (ended > 0) logger.info(`ended ${ended} browser sessions opened with another access code`);
    // People mode: the first admin (STUDIO_ADMIN_EMAIL) exists from the first start on.
    await ensureFirstAdmin();
    // Request logs whose retention ran out are swept from the first minute on.
    startLogRetention();
    // Made now rather than at the first request: the local engine's background work
    // (files left processing, batches a stop interrupted) resumes as soon as the server is up.
    await backend();
    // One answer of the studio's default model made and dropped ahead of the first one a
    // person waits for (its tokenizer and trained model, seconds; the rest of the way, loaded
    // and compiled); an answer that comes first waits for the same work.
    if (env.mode === "local")
      void warmUpGeneration(requireModel(DEFAULT_MODEL, "generateContent")).catch(
        (error: unknown) => logger.warn("could not warm the local engine up", error),
      );
    logger.info(
      `mode=${env.mode} data=${env.dataDir} database=${env.databaseUrl === null ? "sqlite" : describeDatabaseUrl(env.databaseUrl)}` +
        (env.developmentDefaults
          ? " auth=development defaults (loopback only; studio key genstudio-dev-key)"
          : env.people !== null
            ? ` auth=people (first admin ${env.people.adminEmail}${env.people.oidc ? `; provider ${env.people.oidc.issuer}` : ""})`
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
