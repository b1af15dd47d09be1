/**
 * The environment for a test file that runs the studio's routes in process: a data directory
 * of its own, nothing of the machine's database URL, access code or upstream key, and the
 * settings given. Called before the server's modules are imported: they read it once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const MACHINE_SETTINGS = ["DATABASE_URL", "STUDIO_ACCESS_CODE", "GEMINI_API_KEY", "GOOGLE_API_KEY"];

/** Sets the environment up and answers the data directory made for it. */
export function serverEnvironment(
  name: string,
  settings: Record<string, string>,
  alsoUnset: readonly string[] = [],
): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `genstudio-${name}-`));
  for (const setting of [...MACHINE_SETTINGS, ...alsoUnset]) delete process.env[setting];
  Object.assign(process.env, { DATA_DIR: dataDir, ...settings });
  return dataDir;
}
