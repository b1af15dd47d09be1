import { subscribe, unsubscribe } from "node:diagnostics_channel";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { serverEnvironment } from "@/lib/testing/server-environment";

/**
 * The request path's warm-up in process, as the server runs it (the local engine with the
 * development defaults, a real SQLite database of this file's own, the emulator's request log
 * on): it runs the real router and the real readers and writers, and leaves nothing behind.
 */

const dataDir = serverEnvironment("request-path-warm-up", { STUDIO_RATE_LIMIT_PER_MINUTE: "0" });

const { POST } = await import("./catch-all-route");
const { REQUEST_PATH_WARM_UP, warmUpRequestPath } = await import("./request-path-warm-up");
const { dataStores } = await import("../persistence/database-handle");
const { studioMetrics } = await import("../observability/studio-metrics");
const { backend } = await import("../wiring/active-backend");
const { emulatorOf } = await import("@/lib/engine/emulator");
const { generationStats } = await import("@/lib/engine/generate");
const { authenticate } = await import("../auth/authenticate");

const DEVELOPMENT_KEY = "genstudio-dev-key";

function streamRequest(): Request {
  return new Request(
    "http://127.0.0.1:3000/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    {
      method: "POST",
      headers: {
        host: "127.0.0.1:3000",
        "x-goog-api-key": DEVELOPMENT_KEY,
        "content-type": "application/json",
      },
      body: JSON.stringify({ contents: [{ parts: [{ text: "Count to three." }] }] }),
    },
  );
}

/** Every table's row count in the studio's database. */
function rowCounts(): Record<string, number> {
  const database = new Database(path.join(dataDir, "genstudio.sqlite"), { readonly: true });
  try {
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (database.prepare(`SELECT count(*) AS count FROM "${name}"`).get() as { count: number })
          .count,
      ]),
    );
  } finally {
    database.close();
  }
}

/** The stages of API requests published while `run` runs. */
async function stagesDuring(run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (stage: unknown) => seen.push(String(stage));
  subscribe("genstudio:request-stage", listener);
  try {
    await run();
  } finally {
    unsubscribe("genstudio:request-stage", listener);
  }
  return seen;
}

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the request path's warm-up", () => {
  it("is offered by the API's route module for the start script's dispatch", () => {
    expect((globalThis as Record<symbol, unknown>)[REQUEST_PATH_WARM_UP]).toBe(warmUpRequestPath);
  });

  it("runs the real router, readers and engine, and leaves no row, log entry or metric", async () => {
    await dataStores();
    const emulator = emulatorOf(await backend())!;
    expect(emulator.requestLog.enabled).toBe(true);
    const caller = await authenticate(streamRequest(), { countRequest: false });
    const rowsBefore = rowCounts();
    const metricsBefore = studioMetrics().registry.exposition();
    const tokensBefore = generationStats().tokens;

    // The warm-up's bodies pass the operations' own readers (it fails otherwise), its requests
    // are routed and refused before authentication, and the engine answers through the writers.
    const stages = await stagesDuring(warmUpRequestPath);
    expect(stages).toContain("routed");
    expect(stages).not.toContain("authenticated");
    expect(generationStats().tokens).toBeGreaterThan(tokensBefore);

    expect(rowCounts()).toEqual(rowsBefore);
    expect(studioMetrics().registry.exposition()).toBe(metricsBefore);
    expect(emulator.requestLog.list("")).toEqual([]);
    expect(emulator.requestLog.list(caller.ownerId)).toEqual([]);

    // A person's request afterwards is served, logged and counted as ever: the first of each.
    const response = await POST(streamRequest());
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("data: ");
    expect(emulator.requestLog.list(caller.ownerId)).toHaveLength(1);
    expect(studioMetrics().registry.exposition()).not.toBe(metricsBefore);
  });
});
