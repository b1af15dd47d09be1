/**
 * Starts the production server (`node scripts/start.mjs`) with the given settings and waits
 * for it to exit, for the specs that check it refuses to start. The runner's own credentials
 * are not passed on; a server that is still up after 30 s is killed (exit code null).
 */
import { spawn } from "node:child_process";

export async function startUntilExit(
  settings: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const {
    GEMINI_API_KEY: _key,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...environment, PORT: "0", NEXT_TELEMETRY_DISABLED: "1", ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 30_000);
    child.on("exit", (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, output };
}
