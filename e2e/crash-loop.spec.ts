/**
 * Work resumed at start-up never keeps a server in a crash loop. A batch whose one request is
 * long (a JSON list forced to run to the model's output limit) is running when the process is
 * killed (-9);
 * restarted on the same data, the server resumes it, and is killed again while that same
 * request runs. The third start does not run it again: the batch is FAILED with the reason,
 * and the server serves as ever. The starts are read from the database file itself, so
 * nothing but the server's own start-up can have set the batch going again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { OUTPUT_LIMIT_REQUEST } from "./support/long-request.mjs";
import { DEVELOPMENT_KEY } from "./support/servers";

test.describe.configure({ timeout: 240_000 });

const MODEL = "gemini-2.5-flash";

function call(server: OwnServer, route: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/v1beta/${route}`, {
    ...init,
    headers: { "x-goog-api-key": DEVELOPMENT_KEY, "content-type": "application/json" },
  });
}

/** The batch's starts at its current committed request, as the server wrote them. */
function startsOf(dataDir: string, id: string): { attempts: number; done: number } {
  const database = new Database(path.join(dataDir, "genstudio.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    const row = database
      .prepare("SELECT attempts, done_count AS done FROM batches WHERE id = ?")
      .get(id) as { attempts: number; done: number } | undefined;
    return row ?? { attempts: 0, done: 0 };
  } finally {
    database.close();
  }
}

test("a batch that stopped the server twice at the same request is FAILED at the next start, not run again", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-crash-loop-"));
  let server = await startOwnServer({ dataDir });
  try {
    const created = await call(server, `models/${MODEL}:batchGenerateContent`, {
      method: "POST",
      body: JSON.stringify({
        batch: { inputConfig: { requests: { requests: [{ request: OUTPUT_LIMIT_REQUEST }] } } },
      }),
    });
    expect(created.status).toBe(200);
    const name = ((await created.json()) as { name: string }).name;
    const id = name.slice("batches/".length);

    for (let start = 1; start <= 2; start++) {
      // Killed once this start is on record and before its request was answered.
      await expect
        .poll(() => startsOf(dataDir, id).attempts, { timeout: 60_000, intervals: [25] })
        .toBe(start);
      expect(startsOf(dataDir, id).done).toBe(0);
      await server.stop("SIGKILL");
      server = await startOwnServer({ dataDir });
    }

    let state = "";
    let operation: { done?: boolean; error?: { code: number; message: string } } = {};
    await expect
      .poll(
        async () => {
          operation = (await (await call(server, name)).json()) as typeof operation & {
            metadata: { state: string };
          };
          state = (operation as { metadata: { state: string } }).metadata.state;
          return state;
        },
        { timeout: 60_000 },
      )
      .toBe("BATCH_STATE_FAILED");
    expect(operation.done).toBe(true);
    expect(operation.error).toMatchObject({ code: 13 });
    expect(operation.error!.message).toContain("stopped 2 times in a row");
    // Not started a third time, and the server is up and serving.
    expect(startsOf(dataDir, id).attempts).toBe(3);
    expect(server.alive()).toBe(true);
    const light = await call(server, "models/gemini-2.5-flash:countTokens", {
      method: "POST",
      body: JSON.stringify({ contents: [{ parts: [{ text: "Still here?" }] }] }),
    });
    expect(light.status).toBe(200);
  } finally {
    await server.stop("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
