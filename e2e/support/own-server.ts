/**
 * A production server of this worktree started by a spec with settings of its own (the
 * emulator's GENSTUDIO_* variables), on a free port and a fresh DATA_DIR; stopped with its
 * process group. The runner's own credentials are not passed on.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface OwnServer {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export async function startOwnServer(settings: Record<string, string>): Promise<OwnServer> {
  const {
    GEMINI_API_KEY: _key,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...environment
  } = process.env;
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-own-"));
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...environment,
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      ...settings,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
  };
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/session`)).ok)
        return { baseUrl, dataDir, child, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`server did not start: ${output}`);
}
