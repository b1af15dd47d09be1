/**
 * The Python clients (google-genai, langchain-google-genai), run from the venv that
 * scripts/python-venv.sh makes. Each client's cases live in e2e/clients/python/<module>.py;
 * one Python process per client and mode runs them all (e2e/clients/python/run_cases.py) and
 * reports a JSON line per case, which becomes that case's test here.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { defineClientSuite, type ClientCase, type ClientTarget } from "./client-suite";
import * as fixtures from "./fixtures";

const PYTHON = path.resolve(
  process.env.GENSTUDIO_PYTHON_VENV ?? ".cache/python-venv",
  "bin/python",
);
const RUNNER = path.resolve("e2e/clients/python/run_cases.py");
/** The fixtures both languages share, as JSON (functions left out). */
const FIXTURES = JSON.stringify(
  Object.fromEntries(Object.entries(fixtures).filter(([, value]) => typeof value !== "function")),
);

interface CaseResult {
  name: string;
  status: "passed" | "failed" | "skipped";
  detail: string;
}

function listCases(module: string): { name: string; skip: string | null }[] | string {
  if (!fs.existsSync(PYTHON)) return `no Python venv at ${PYTHON}: run scripts/python-venv.sh`;
  return execFileSync(PYTHON, [RUNNER, module, "--list"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { name: string; skip: string | null });
}

function runAll(module: string, target: ClientTarget): Promise<Map<string, CaseResult>> {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [RUNNER, module, "--base-url", target.baseUrl, "--api-key", target.apiKey],
      {
        encoding: "utf8",
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, GENSTUDIO_CLIENT_FIXTURES: FIXTURES },
      },
      (error, stdout, stderr) => {
        const results = new Map<string, CaseResult>();
        for (const line of stdout.split("\n")) {
          if (!line.startsWith("{")) continue;
          const result = JSON.parse(line) as CaseResult;
          results.set(result.name, result);
        }
        if (error && results.size === 0) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(results);
      },
    );
  });
}

function pythonCases(module: string): ClientCase[] {
  const listed = listCases(module);
  if (typeof listed === "string") {
    return [
      {
        name: "the Python venv exists",
        async run() {
          throw new Error(listed);
        },
      },
    ];
  }
  const runs = new Map<string, Promise<Map<string, CaseResult>>>();
  return listed.map(({ name, skip }) => ({
    name,
    ...(skip ? { skip } : {}),
    async run(target) {
      test.setTimeout(300_000);
      if (!runs.has(target.mode)) runs.set(target.mode, runAll(module, target));
      const result = (await runs.get(target.mode)!).get(name);
      expect(result, `${name}: no result from the Python run`).toBeDefined();
      test.skip(result!.status === "skipped", result!.detail);
      expect(result!.status, result!.detail).toBe("passed");
    },
  }));
}

defineClientSuite("google-genai (Python)", pythonCases("google_genai_cases"));
defineClientSuite("langchain-google-genai (Python)", pythonCases("langchain_google_genai_cases"));
defineClientSuite(
  "google-genai interactions (Python)",
  pythonCases("google_genai_interactions_cases"),
);
