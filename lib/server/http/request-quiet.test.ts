import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watchRequestQuiet } from "./request-quiet";

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = async () => (await fetch(url)).text();

describe("watchRequestQuiet", () => {
  it("lets work go on at once while no request arrives", async () => {
    const quiet = watchRequestQuiet({ quietAfterMs: 5_000 });
    try {
      expect(await quiet.untilQuiet()).toBe(true);
    } finally {
      quiet.close();
    }
  });

  it("holds work back until requests have stopped arriving for the quiet time", async () => {
    const quiet = watchRequestQuiet({ quietAfterMs: 200 });
    try {
      await request();
      const arrived = performance.now();
      expect(await quiet.untilQuiet()).toBe(true);
      expect(performance.now() - arrived).toBeGreaterThanOrEqual(150);
    } finally {
      quiet.close();
    }
  });

  it("tells the work to end when requests keep arriving past the longest wait", async () => {
    const quiet = watchRequestQuiet({ quietAfterMs: 200, longestWaitMs: 400 });
    let arriving = true;
    const traffic = (async () => {
      while (arriving) {
        await request();
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await quiet.untilQuiet()).toBe(false);
    } finally {
      arriving = false;
      await traffic;
      quiet.close();
    }
  });

  it("no longer watches once closed", async () => {
    const quiet = watchRequestQuiet({ quietAfterMs: 5_000 });
    quiet.close();
    await request();
    const asked = performance.now();
    expect(await quiet.untilQuiet()).toBe(true);
    expect(performance.now() - asked).toBeLessThan(4_000);
  });
});
