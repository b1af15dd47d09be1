/** Types of own-server.mjs (a production server of a spec's own). */
import type { ChildProcess } from "node:child_process";
export interface OwnServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  log(): string;
  serverPid(): number;
  alive(): boolean;
  stop(signal?: NodeJS.Signals): Promise<void>;
}
export function freePort(): Promise<number>;
export function isRunning(pid: number): boolean;
export function residentBytes(pid: number): number;
export function startOwnServer(options: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  cwd?: string;
  readyTimeoutMs?: number;
}): Promise<OwnServer>;
