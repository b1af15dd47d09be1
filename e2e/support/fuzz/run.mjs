/**
 * Drives a fuzz run: draws requests from `requestArbitrary`, sends them a few at a time with
 * a deadline each, checks every exchange with the oracle, and tallies statuses per endpoint.
 * Two modes: `assertFuzz` is a fast-check property (stops at the first failing batch and
 * shrinks it to a minimal counterexample), `sampleFuzz` keeps going to count everything.
 */
import fc from "fast-check";
import { createFuzzClient } from "./client.mjs";
import { checkExchange } from "./oracle.mjs";
import { requestArbitrary } from "./requests.mjs";

/**
 * @typedef {{
 *   sent: number, answered: number, statuses: Record<string, number>,
 *   byEndpoint: Record<string, Record<string, number>>,
 *   timing: Record<string, { count: number, meanMs: number, maxMs: number }>,
 *   fiveHundreds: number, hangs: number, dropped: number, clientRefused: number, staleConnectionRetries: number,
 *   problems: { problem: string, request: object }[], slowest: { ms: number, label: string }, ms: number,
 * }} FuzzReport
 */

function emptyReport() {
  return {
    sent: 0,
    answered: 0,
    statuses: {},
    byEndpoint: {},
    timing: {},
    fiveHundreds: 0,
    hangs: 0,
    dropped: 0,
    clientRefused: 0,
    staleConnectionRetries: 0,
    problems: [],
    slowest: { ms: 0, label: "" },
    ms: 0,
  };
}

/** A short, printable form of a request (bodies cut). */
export function printable(request) {
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body === "string"
        ? request.body.slice(0, 400)
        : `<${request.body.length} bytes>`;
  return {
    label: request.label,
    method: request.method,
    path: request.path.slice(0, 400),
    headers: request.headers,
    body,
  };
}

async function exchange(client, request, report, options) {
  report.sent++;
  const answer = await client.send(request, { timeoutMs: options.timeoutMs });
  if (answer.retried) report.staleConnectionRetries++;
  const label = request.label;
  const endpoint = (report.byEndpoint[label] ??= {});
  const timing = (report.timing[label] ??= { count: 0, meanMs: 0, maxMs: 0 });
  timing.meanMs =
    Math.round(((timing.meanMs * timing.count + answer.ms) / (timing.count + 1)) * 10) / 10;
  timing.count++;
  timing.maxMs = Math.max(timing.maxMs, Math.round(answer.ms));
  if ("failure" in answer) {
    if (answer.failure === "timeout") report.hangs++;
    else if (answer.failure === "connection") report.dropped++;
    else report.clientRefused++;
    endpoint[answer.failure] = (endpoint[answer.failure] ?? 0) + 1;
  } else {
    report.answered++;
    report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
    endpoint[answer.status] = (endpoint[answer.status] ?? 0) + 1;
    if (answer.status >= 500) report.fiveHundreds++;
    if (answer.ms > report.slowest.ms) report.slowest = { ms: Math.round(answer.ms), label };
  }
  const problems = checkExchange(request, answer, { secrets: options.secrets ?? [] });
  for (const problem of problems)
    if (report.problems.length < (options.keepProblems ?? 50))
      report.problems.push({ problem, request: printable(request) });
  return problems;
}

/** Sends `requests` with at most `concurrency` in flight. */
async function sendAll(client, requests, concurrency, report, options) {
  let next = 0;
  const problems = [];
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      problems.push(...(await exchange(client, request, report, options)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return problems;
}

/**
 * Keeps sending until `runs` requests went out; never stops at a problem.
 * @param {{ baseUrl: string, world: object, runs: number, seed?: number, concurrency?: number, timeoutMs?: number, secrets?: string[], onProgress?: (report: FuzzReport) => void, progressEvery?: number }} options
 * @returns {Promise<FuzzReport>}
 */
export async function sampleFuzz(options) {
  const started = performance.now();
  const report = emptyReport();
  const client = createFuzzClient(options.baseUrl, { connections: options.concurrency ?? 6 });
  const arbitrary = options.arbitrary ?? requestArbitrary(options.world);
  const seed = options.seed ?? Date.now();
  const batchSize = 100;
  let lastProgress = 0;
  try {
    for (let batch = 0; report.sent < options.runs; batch++) {
      // Batch seeds spread by a multiplier, so runs with neighbouring seeds do not share batches.
      const requests = fc.sample(arbitrary, {
        numRuns: Math.min(batchSize, options.runs - report.sent),
        seed: (Math.imul(seed, 0x9e3779b1) + batch) | 0,
      });
      // Generating blocks this process: let the pool see connections the server closed
      // meanwhile (keep-alive timeouts) before it reuses them.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await sendAll(client, requests, options.concurrency ?? 6, report, options);
      if (options.onProgress && report.sent - lastProgress >= (options.progressEvery ?? 5000)) {
        lastProgress = report.sent;
        report.ms = performance.now() - started;
        options.onProgress(report);
      }
    }
  } finally {
    await client.close();
  }
  report.ms = performance.now() - started;
  return report;
}

/**
 * The fast-check property: every batch of `concurrency` generated requests gets answers that
 * satisfy the oracle. Throws fast-check's report (seed, path, shrunk counterexample) on failure.
 * @returns {Promise<FuzzReport>}
 */
export async function assertFuzz(options) {
  const started = performance.now();
  const report = emptyReport();
  const concurrency = options.concurrency ?? 6;
  const client = createFuzzClient(options.baseUrl, { connections: concurrency });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(requestArbitrary(options.world), {
          minLength: concurrency,
          maxLength: concurrency,
        }),
        async (requests) => {
          const problems = await sendAll(client, requests, concurrency, report, options);
          if (problems.length > 0) throw new Error(problems.join("\n"));
        },
      ),
      {
        numRuns: Math.ceil(options.runs / concurrency),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        endOnFailure: false,
        interruptAfterTimeLimit: options.timeLimitMs,
        markInterruptAsFailure: false,
      },
    );
  } finally {
    await client.close();
  }
  report.ms = performance.now() - started;
  return report;
}

/**
 * The server still serves: models, a token count, a file listing and a session answer as
 * they should. Returns what was wrong (empty when healthy).
 */
export async function healthProblems(baseUrl, key) {
  const problems = [];
  const expectOk = async (label, path, init) => {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        ...init,
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      if (!response.ok) problems.push(`${label}: ${response.status} ${text.slice(0, 200)}`);
      return text;
    } catch (error) {
      problems.push(`${label}: ${error.message}`);
      return "";
    }
  };
  await expectOk("session", "/api/session");
  await expectOk("models.list", "/v1beta/models", { headers: { "x-goog-api-key": key } });
  await expectOk("files.list", "/v1beta/files", { headers: { "x-goog-api-key": key } });
  const counted = await expectOk("countTokens", "/v1beta/models/gemini-2.5-flash:countTokens", {
    method: "POST",
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({
      // As @google/genai sends a string (a user turn): 11 tokens on 2.5 Flash, recorded.
      contents: [
        { role: "user", parts: [{ text: "The quick brown fox jumps over the lazy dog." }] },
      ],
    }),
  });
  if (counted && !counted.includes('"totalTokens": 11'))
    problems.push(`countTokens gave ${counted.slice(0, 200)}`);
  return problems;
}

/** Lines of a server log that show a failure of ours (unexpected errors, crashes). */
export function logFailures(log) {
  return log
    .split("\n")
    .filter((line) =>
      /\berror unexpected error\b|Failed to handle request|Uncaught|unhandledRejection|FATAL|Internal Server Error/i.test(
        line,
      ),
    );
}
