import { defineConfig } from "@playwright/test";
import {
  ACCESS_CODE,
  FAULT_UPSTREAM_KEY,
  GATEWAY_ACCESS_CODE,
  GATEWAY_KEYS,
  STUDIO_KEYS,
  UPSTREAM_KEY,
  chainUpstreamServer,
  faultGatewayServer,
  faultUpstreamPort,
  gatewayServer,
  keyedServer,
  localServer,
  PEOPLE_ADMIN,
  peopleServer,
  serverLogFile,
} from "./e2e/support/servers";

const startCommand = "node scripts/start.mjs";
const keyList = (keys: Record<string, string>) =>
  Object.entries(keys)
    .map(([name, key]) => `${name}:${key}`)
    .join(",");
const gatewayKeys = keyList(GATEWAY_KEYS);

function serverEnvironment(extra: Record<string, string>): Record<string, string> {
  const {
    GEMINI_API_KEY: _key,
    GOOGLE_API_KEY: _google,
    STUDIO_API_KEYS: _keys,
    STUDIO_ACCESS_CODE: _code,
    ...rest
  } = process.env;
  return {
    ...(rest as Record<string, string>),
    HOSTNAME: "127.0.0.1",
    NEXT_TELEMETRY_DISABLED: "1",
    ...extra,
  };
}

export default defineConfig({
  testDir: "./e2e",
  testMatch: /.*\.spec\.ts/,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // The matrix reporter summarises the client conformance suite (e2e/clients) at the end.
  reporter: [["list"], ["./e2e/support/client-matrix-reporter.ts"]],
  use: {
    baseURL: localServer.baseUrl,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
    trace: "off",
  },
  webServer: [
    {
      command: startCommand,
      url: `${localServer.baseUrl}/api/session`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      // Dozens of specs (and both workers) share this server's one development key and its
      // browser sessions, far past a person's 600 requests a minute: no rate limit here. The
      // limit itself is tested on the fault gateway's limited key and across two instances.
      env: serverEnvironment({
        PORT: String(localServer.port),
        DATA_DIR: localServer.dataDir,
        STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      }),
    },
    {
      command: startCommand,
      url: `${keyedServer.baseUrl}/api/session`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: serverEnvironment({
        PORT: String(keyedServer.port),
        DATA_DIR: keyedServer.dataDir,
        STUDIO_API_KEYS: keyList(STUDIO_KEYS),
        STUDIO_ACCESS_CODE: ACCESS_CODE,
      }),
    },
    {
      // People mode: each person's keys and browser share a workspace of their own.
      command: startCommand,
      url: `${peopleServer.baseUrl}/api/session`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: serverEnvironment({
        PORT: String(peopleServer.port),
        DATA_DIR: peopleServer.dataDir,
        STUDIO_ADMIN_EMAIL: PEOPLE_ADMIN.email,
        STUDIO_ADMIN_PASSWORD: PEOPLE_ADMIN.password,
        STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      }),
    },
    {
      // The local engine at the end of the gateway chain: only the gateway's upstream key opens it.
      command: startCommand,
      url: `${chainUpstreamServer.baseUrl}/api/session`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: serverEnvironment({
        PORT: String(chainUpstreamServer.port),
        DATA_DIR: chainUpstreamServer.dataDir,
        STUDIO_API_KEYS: `upstream:${UPSTREAM_KEY}`,
        STUDIO_RATE_LIMIT_PER_MINUTE: "0",
        STUDIO_MAX_STREAMS_PER_KEY: "0",
      }),
    },
    {
      // Gateway mode chained to the local engine above; its output goes to a file the security spec scans.
      command: `${startCommand} > "${serverLogFile(gatewayServer)}" 2>&1`,
      url: `${gatewayServer.baseUrl}/api/session`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: serverEnvironment({
        PORT: String(gatewayServer.port),
        DATA_DIR: gatewayServer.dataDir,
        GEMINI_API_KEY: UPSTREAM_KEY,
        GEMINI_BASE_URL: chainUpstreamServer.baseUrl,
        STUDIO_API_KEYS: gatewayKeys,
        STUDIO_ACCESS_CODE: GATEWAY_ACCESS_CODE,
        // Each suite's key is its own, but the client suites send more than the default 600 a
        // minute through theirs; the gateway's limits are tested on the fault gateway below.
        STUDIO_RATE_LIMIT_PER_MINUTE: "6000",
      }),
    },
    {
      // Gateway mode against the fault-injecting test upstream, with short timeouts and tight limits.
      command: `${startCommand} > "${serverLogFile(faultGatewayServer)}" 2>&1`,
      url: `${faultGatewayServer.baseUrl}/api/session`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: serverEnvironment({
        PORT: String(faultGatewayServer.port),
        DATA_DIR: faultGatewayServer.dataDir,
        GEMINI_API_KEY: FAULT_UPSTREAM_KEY,
        GEMINI_BASE_URL: `http://127.0.0.1:${faultUpstreamPort}`,
        STUDIO_API_KEYS: gatewayKeys,
        STUDIO_ACCESS_CODE: GATEWAY_ACCESS_CODE,
        UPSTREAM_FIRST_BYTE_TIMEOUT_MS: "1500",
        UPSTREAM_IDLE_TIMEOUT_MS: "1500",
        UPSTREAM_CONNECT_TIMEOUT_MS: "1000",
        UPSTREAM_MAX_ATTEMPTS: "3",
        UPSTREAM_RETRY_BASE_DELAY_MS: "100",
        UPSTREAM_RETRY_MAX_DELAY_MS: "3000",
        STUDIO_RATE_LIMIT_PER_MINUTE: "120",
        STUDIO_RATE_LIMIT_BURST: "20",
        STUDIO_MAX_STREAMS_PER_KEY: "2",
      }),
    },
  ],
});
