import { defineConfig } from "@playwright/test";
import { ACCESS_CODE, STUDIO_KEYS, keyedServer, localServer } from "./e2e/support/servers";

const startCommand = "node scripts/start.mjs";

function serverEnvironment(extra: Record<string, string>): Record<string, string> {
  const { GEMINI_API_KEY: _key, GOOGLE_API_KEY: _google, STUDIO_API_KEYS: _keys, STUDIO_ACCESS_CODE: _code, ...rest } = process.env;
  return { ...(rest as Record<string, string>), HOSTNAME: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1", ...extra };
}

export default defineConfig({
  testDir: "./e2e",
  testMatch: /.*\.spec\.ts/,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
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
      env: serverEnvironment({ PORT: String(localServer.port), DATA_DIR: localServer.dataDir }),
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
        STUDIO_API_KEYS: `alice:${STUDIO_KEYS.alice},bob:${STUDIO_KEYS.bob}`,
        STUDIO_ACCESS_CODE: ACCESS_CODE,
      }),
    },
  ],
});
