/**
 * The servers Playwright starts for the suites (see playwright.config.ts). Ports and data
 * directories are chosen once in the main process and passed to workers through the
 * environment, so every worker sees the same values.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const STUDIO_KEYS = {
  alice: "alice-studio-key-0123456789",
  bob: "bob-studio-key-0123456789ab",
} as const;
export const ACCESS_CODE = "open-sesame-e2e";
export const DEVELOPMENT_KEY = "genstudio-dev-key";

export interface ServerInfo {
  baseUrl: string;
  dataDir: string;
  port: number;
}

function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim());
}

function ensure(name: string): ServerInfo {
  const portVariable = `GENSTUDIO_E2E_${name}_PORT`;
  const dirVariable = `GENSTUDIO_E2E_${name}_DATA`;
  process.env[portVariable] ??= String(freePort());
  process.env[dirVariable] ??= fs.mkdtempSync(path.join(os.tmpdir(), `genstudio-e2e-${name.toLowerCase()}-`));
  const port = Number(process.env[portVariable]);
  return { port, baseUrl: `http://127.0.0.1:${port}`, dataDir: process.env[dirVariable]! };
}

/** Local engine, nothing configured: the loopback development defaults. */
export const localServer = ensure("LOCAL");
/** Local engine with studio keys and an access code configured. */
export const keyedServer = ensure("KEYED");
