/**
 * A Playwright fixture for browser specs of the studio in upstream (gateway) mode: a server of
 * the spec worker's own, loopback with no studio credentials (the development default, so the
 * browser gets a session), whose upstream is the test upstream (e2e/support/test-upstream.ts).
 * Its scenarios are chosen by model name: `answer-<name>-v1` streams a recorded answer of the
 * service, `paced-chat` a word every 100 ms, `error-midstream-chat` fails after two events.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./fuzz/own-server.mjs";
import { startTestUpstream, type TestUpstream } from "./test-upstream";

/** The gateway's upstream key (the test upstream records what each request carried). */
export const TEST_UPSTREAM_KEY = "test-upstream-key-0123456789";

export interface UpstreamGateway {
  upstream: TestUpstream;
  server: OwnServer;
}

/** `test` with a worker-scoped `gateway`, and every page's `baseURL` pointed at it. */
export const test = base.extend<object, { gateway: UpstreamGateway }>({
  gateway: [
    async ({}, use) => {
      const upstream = await startTestUpstream();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-gateway-"));
      const server = await startOwnServer({
        dataDir,
        env: { GEMINI_API_KEY: TEST_UPSTREAM_KEY, GEMINI_BASE_URL: upstream.url },
      });
      await use({ upstream, server });
      await server.stop("SIGTERM");
      await upstream.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ gateway }, use) => use(gateway.server.baseUrl),
});

export { expect } from "@playwright/test";
