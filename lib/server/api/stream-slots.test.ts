import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A stream's slot through the API surface's route module as the server serves it (the local
 * engine, a real SQLite database of this file's own, one stream per key): the slot is held
 * while the stream runs and released when its last byte is read, when the client cancels it,
 * and when the request is aborted (the observation's watch of the answer releases it).
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-stream-slots-"));
for (const name of ["DATABASE_URL", "STUDIO_ACCESS_CODE", "GEMINI_API_KEY", "GOOGLE_API_KEY"])
  delete process.env[name];
const KEY = "stream-slots-env-key-0123456789";
Object.assign(process.env, {
  DATA_DIR: dataDir,
  STUDIO_API_KEYS: `slots:${KEY}`,
  STUDIO_RATE_LIMIT_PER_MINUTE: "0",
  STUDIO_MAX_STREAMS_PER_KEY: "1",
});

const { POST } = await import("./catch-all-route");

const MODEL = "gemini-2.5-flash";

function stream(signal?: AbortSignal): Promise<Response> {
  return POST(
    new Request(`http://127.0.0.1:3000/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "x-goog-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "Count to three." }] }] }),
      ...(signal ? { signal } : {}),
    }),
  );
}

/** The slot is released off the answer's path (a database write): give it its turn. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a stream's slot through the route", () => {
  it("is held while the stream runs and released at its end, on cancel and on abort", async () => {
    const first = await stream();
    expect(first.status).toBe(200);
    const refused = await stream();
    expect(refused.status).toBe(429);
    await refused.text();

    await first.text();
    await settle();
    const second = await stream();
    expect(second.status).toBe(200);
    await second.body!.cancel();
    await settle();

    const controller = new AbortController();
    const third = await stream(controller.signal);
    expect(third.status).toBe(200);
    controller.abort();
    await settle();
    const fourth = await stream();
    expect(fourth.status).toBe(200);
    await fourth.text();
  });
});
