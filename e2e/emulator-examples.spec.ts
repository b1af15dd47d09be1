/**
 * The README's examples of "Testing your client against Genstudio" (examples/testing-against-
 * genstudio, the same text as the README's, lib/engine/emulator/readme-examples.test.ts checks
 * that), run as a team would run them against a studio: pytest with google-genai, Vitest with
 * @google/genai, and the curl script. Each uses its own studio key on the keyed server.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { STUDIO_KEYS, keyedServer } from "./support/servers";

const run = promisify(execFile);
const DIRECTORY = path.resolve("examples/testing-against-genstudio");
const environment = {
  ...process.env,
  GENSTUDIO_URL: keyedServer.baseUrl,
  GENSTUDIO_KEY: STUDIO_KEYS.examples,
};
const python = path.join(
  process.env.GENSTUDIO_PYTHON_VENV ?? path.resolve(".cache/python-venv"),
  "bin",
  "python",
);

test.describe.configure({ mode: "serial", timeout: 120_000 });

test("pytest with google-genai", async () => {
  const { stdout } = await run(
    python,
    ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_weather_client.py"],
    {
      cwd: DIRECTORY,
      env: environment,
    },
  );
  expect(stdout).toMatch(/3 passed/);
});

test("Vitest with @google/genai", async () => {
  const { stdout } = await run(
    process.execPath,
    [path.resolve("node_modules/vitest/vitest.mjs"), "run", "--config", "vitest.config.ts"],
    { cwd: DIRECTORY, env: { ...environment, NO_COLOR: "1" } },
  );
  expect(stdout).toMatch(/Tests\s+4 passed/);
});

test("curl", async () => {
  const { stdout } = await run("bash", ["curl.sh"], { cwd: DIRECTORY, env: environment });
  expect(stdout).toContain("curl example: ok");
});
