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
  /** Owner and intruder of the tenant-references spec, whose many calls touch no one else's limits. */
  carol: "carol-studio-key-0123456789",
  mallory: "mallory-studio-key-01234567",
  /** The emulator spec's caller and the one that must never see its scenarios, log or cassettes. */
  tester: "tester-studio-key-0123456789",
  intruder: "intruder-studio-key-01234567",
  /** The README's examples (examples/testing-against-genstudio), run by e2e/emulator-examples. */
  examples: "examples-studio-key-01234567",
  /** The multipart upload spec's caller, whose file list no other spec changes while it counts it. */
  uploader: "uploader-studio-key-0123456789",
} as const;
export const ACCESS_CODE = "open-sesame-e2e";
export const DEVELOPMENT_KEY = "genstudio-dev-key";

export interface ServerInfo {
  baseUrl: string;
  dataDir: string;
  port: number;
}

function freePort(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim());
}

function ensure(name: string): ServerInfo {
  const portVariable = `GENSTUDIO_E2E_${name}_PORT`;
  const dirVariable = `GENSTUDIO_E2E_${name}_DATA`;
  process.env[portVariable] ??= String(freePort());
  process.env[dirVariable] ??= fs.mkdtempSync(
    path.join(os.tmpdir(), `genstudio-e2e-${name.toLowerCase()}-`),
  );
  const port = Number(process.env[portVariable]);
  return { port, baseUrl: `http://127.0.0.1:${port}`, dataDir: process.env[dirVariable]! };
}

/** Local engine, nothing configured: the loopback development defaults. */
export const localServer = ensure("LOCAL");
/** Local engine with studio keys and an access code configured. */
export const keyedServer = ensure("KEYED");

/** The gateway's upstream key: held only by the gateway server and accepted only by the chained local engine. */
export const UPSTREAM_KEY = "chain-upstream-secret-0123456789";
/** The fault gateway's upstream key (sent to the test upstream). */
export const FAULT_UPSTREAM_KEY = "fault-upstream-secret-0123456789";
/** Studio keys of both gateways: two owners for ownership, and one key per limit under test. */
export const GATEWAY_KEYS = {
  alice: "gateway-alice-key-0123456789",
  bob: "gateway-bob-key-0123456789ab",
  limited: "gateway-limited-key-01234567",
  streams: "gateway-streams-key-01234567",
  /** The client conformance suite's (e2e/clients). */
  clients: "gateway-clients-key-01234567",
  carol: "gateway-carol-key-0123456789",
  mallory: "gateway-mallory-key-01234567",
  /** Owner of the upload session whose keyless commands use up its rate (gateway-faults). */
  uploader: "gateway-uploader-key-0123456",
} as const;
export const GATEWAY_ACCESS_CODE = "gateway-open-sesame";
/** Local engine with people (STUDIO_ADMIN_EMAIL): each person's keys and sessions in a workspace of their own. */
export const peopleServer = ensure("PEOPLE");
/** The first admin of peopleServer. */
export const PEOPLE_ADMIN = {
  email: "admin@people.test",
  password: "people-admin-password",
} as const;
/** Local engine that only the gateway calls (its one studio key is UPSTREAM_KEY). */
export const chainUpstreamServer = ensure("CHAIN");
/** Upstream mode, chained to chainUpstreamServer. */
export const gatewayServer = ensure("GATEWAY");
/** Upstream mode against the fault-injecting test upstream (e2e/support/test-upstream.ts). */
export const faultGatewayServer = ensure("FAULTS");
process.env.GENSTUDIO_E2E_FAULT_UPSTREAM_PORT ??= String(freePort());
/** Where the fault spec starts the test upstream; the fault gateway forwards there. */
export const faultUpstreamPort = Number(process.env.GENSTUDIO_E2E_FAULT_UPSTREAM_PORT);

/** The file a server's stdout and stderr are written to (gateways only), scanned for secrets. */
export function serverLogFile(server: ServerInfo): string {
  return path.join(server.dataDir, "server.log");
}
