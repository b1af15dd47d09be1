/**
 * Faults, against production servers of this spec's own: kill -9 in the middle of uploads,
 * cache creates and conversation writes, round after round on the same DATA_DIR, then restart
 * and check that SQLite is sound, no partial file is ACTIVE, no orphan bytes survive the
 * start-up sweep, every acknowledged write is still there and interrupted uploads resume; and
 * a full disk (a small tmpfs as DATA_DIR) answers clean errors, corrupts nothing, and the
 * studio carries on once space is freed.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { errorBodyProblems } from "./support/fuzz/oracle.mjs";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { auditStore, serviceHash } from "./support/fuzz/store-audit";
import {
  JSON_HEADERS,
  KEY,
  newAcknowledged,
  pattern,
  startUpload,
  waitFor,
  WriteLoad,
  type Acknowledged,
} from "./support/fault-load";

test.describe.configure({ mode: "serial", timeout: 240_000 });

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 3);

test("kill -9 during uploads, cache creates and conversation writes: nothing acknowledged is lost, nothing partial is ACTIVE, uploads resume", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-faults-"));
  const acknowledged: Acknowledged = newAcknowledged();
  let server: OwnServer | undefined;
  let kills = 0;
  let checked = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      server = await startOwnServer({ dataDir, env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0" } });
      const load = new WriteLoad(server.baseUrl, acknowledged, round);
      // Let the loops run a while (longer each round), then kill at a moment when an upload
      // chunk, a cache create and a conversation write are all on the wire.
      await new Promise((resolve) => setTimeout(resolve, 800 + round * 600));
      const allBusy = await waitFor(() => (load.allBusy() ? true : undefined), 20_000);
      await server.stop("SIGKILL");
      kills++;
      await load.stop();
      expect(allBusy, "the kill did not land while all three kinds of write were in flight").toBe(
        true,
      );

      // On disk, before anything restarts: SQLite sound, no ACTIVE file without its exact bytes.
      const offline = auditStore(dataDir);
      expect(offline.integrity).toBe("ok");
      expect(offline.foreignKeyProblems).toBe(0);
      expect(offline.badActiveFiles).toEqual([]);
      expect(offline.shortSessions).toEqual([]);

      // Bytes nothing refers to (what a crash between two steps can leave) are swept at start.
      fs.mkdirSync(path.join(dataDir, "uploads"), { recursive: true });
      fs.mkdirSync(path.join(dataDir, "files"), { recursive: true });
      fs.writeFileSync(path.join(dataDir, "uploads", `orphan${round}.part`), pattern(0, 65_536));
      fs.writeFileSync(path.join(dataDir, "files", `orphan${round}`), pattern(0, 65_536));

      server = await startOwnServer({ dataDir, env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0" } });
      // The file store (and its sweep) starts with the first API request.
      expect(
        (await fetch(`${server.baseUrl}/v1beta/files`, { headers: { "x-goog-api-key": KEY } }))
          .status,
      ).toBe(200);
      let audit = auditStore(dataDir, { readonly: true });
      const swept = await waitFor(() => {
        audit = auditStore(dataDir, { readonly: true });
        return audit.orphanFiles.length === 0 && audit.orphanParts.length === 0 ? audit : undefined;
      });
      expect(
        swept,
        `orphan bytes are still there after the start-up sweep: ${JSON.stringify(audit)}`,
      ).toBeDefined();
      expect(swept!.integrity).toBe("ok");

      for (const [name, hash] of acknowledged.files) {
        let last = "";
        const file = await waitFor(async () => {
          const response = await fetch(`${server!.baseUrl}/v1beta/${name}`, {
            headers: { "x-goog-api-key": KEY },
          });
          last = await response.text();
          const body = JSON.parse(last) as { state?: string; sha256Hash?: string };
          return body.state === "ACTIVE" ? body : undefined;
        });
        expect(
          file,
          `${name} is not ACTIVE after the restart: ${last}\n${server.log().slice(-2000)}`,
        ).toBeDefined();
        expect(file!.sha256Hash).toBe(hash);
        checked++;
      }
      for (const name of acknowledged.caches) {
        const response = await fetch(`${server.baseUrl}/v1beta/${name}`, {
          headers: { "x-goog-api-key": KEY },
        });
        expect(response.status, `${name} was acknowledged but is gone`).toBe(200);
        checked++;
      }
      for (const [id, messages] of acknowledged.conversations) {
        const response = await fetch(`${server.baseUrl}/api/conversations/${id}`, {
          headers: { "x-goog-api-key": KEY },
        });
        expect(response.status, `conversation ${id} was acknowledged but is gone`).toBe(200);
        const stored = (
          (await response.json()) as {
            messages: { id: string; content: { parts: { text: string }[] } }[];
          }
        ).messages;
        // Every acknowledged message is there, whole and in order; at most the one in flight follows.
        expect(
          stored
            .slice(0, messages.length)
            .map((message) => [message.id, message.content.parts[0]!.text.length]),
        ).toEqual(messages.map((message) => [message.id, message.length]));
        expect(stored.length - messages.length).toBeLessThanOrEqual(1);
        checked += 1 + messages.length;
      }
      // Every interrupted upload resumes from what the server says it holds, and ends whole.
      for (const [sessionPath, { declared, received }] of acknowledged.uploads) {
        const query = await fetch(`${server.baseUrl}${sessionPath}`, {
          method: "POST",
          headers: { "X-Goog-Upload-Command": "query" },
        });
        expect(query.status).toBe(200);
        const held = Number(query.headers.get("x-goog-upload-size-received"));
        expect(held, "acknowledged bytes of an upload were lost").toBeGreaterThanOrEqual(received);
        if (query.headers.get("x-goog-upload-status") === "final") {
          // Finalized and committed just before the kill; only the answer was lost.
          const file = ((await query.json()) as { file: { name: string; sha256Hash: string } })
            .file;
          expect(file.sha256Hash).toBe(serviceHash(pattern(0, declared)));
          acknowledged.files.set(file.name, file.sha256Hash);
          checked++;
          continue;
        }
        const final = await fetch(`${server.baseUrl}${sessionPath}`, {
          method: "POST",
          headers: {
            "X-Goog-Upload-Command": "upload, finalize",
            "X-Goog-Upload-Offset": String(held),
          },
          body: pattern(held, declared - held),
        });
        expect(final.status).toBe(200);
        const file = ((await final.json()) as { file: { name: string; sha256Hash: string } }).file;
        expect(file.sha256Hash).toBe(serviceHash(pattern(0, declared)));
        acknowledged.files.set(file.name, file.sha256Hash);
        checked++;
      }
      acknowledged.uploads.clear();
      await server.stop("SIGTERM");
      server = undefined;
    }
    const final = auditStore(dataDir);
    expect(final.integrity).toBe("ok");
    expect(final.badActiveFiles).toEqual([]);
    expect(final.orphanFiles).toEqual([]);
    console.log(
      `faults: ${kills} kill -9 during uploads, cache creates and conversation writes; ${checked} acknowledged writes checked after restarts, 0 lost; store ${JSON.stringify(final.counts)}`,
    );
  } finally {
    await server?.stop("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// ------------------------------------------------------------------ a full disk

function mountSmallDisk(folder: string, megabytes: number): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", folder], {
      stdio: "ignore",
    });
    return true;
  } catch {
    return false;
  }
}

function expectCleanError(answer: { status: number; text: string }, label: string): void {
  expect(
    errorBodyProblems(answer.text, answer.status),
    `${label}: ${answer.status} ${answer.text.slice(0, 200)}`,
  ).toEqual([]);
}

test("a full disk gives clean errors, corrupts nothing, and the studio carries on when space is freed", async () => {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-small-disk-"));
  test.skip(
    !mountSmallDisk(mountPoint, 40),
    "needs root (or CAP_SYS_ADMIN) to mount a small tmpfs as DATA_DIR",
  );
  const dataDir = path.join(mountPoint, "data");
  const ballast = path.join(mountPoint, "ballast");
  let server: OwnServer | undefined;
  try {
    fs.writeFileSync(ballast, Buffer.alloc(4 * 1024 * 1024, 1));
    server = await startOwnServer({ dataDir, env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0" } });
    const base = server.baseUrl;
    const call = async (route: string, init: RequestInit = {}) => {
      const response = await fetch(`${base}${route}`, {
        ...init,
        headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string> | undefined) },
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    };
    // Some data to keep: a conversation, a cache, a file.
    const conversation = JSON.parse(
      (
        await call("/api/conversations", {
          method: "POST",
          body: JSON.stringify({ title: "kept", settings: { model: "models/gemini-2.5-flash" } }),
        })
      ).text,
    ) as { id: string };
    const cache = JSON.parse(
      (
        await call("/v1beta/cachedContents", {
          method: "POST",
          body: JSON.stringify({
            model: "models/gemini-2.5-flash",
            contents: [
              {
                role: "user",
                parts: [{ text: "A cache that must survive the full disk. ".repeat(200) }],
              },
            ],
          }),
        })
      ).text,
    ) as { name: string };
    const keptBytes = pattern(0, 1024 * 1024);
    const keptPath = await startUpload(base, keptBytes.length);
    const kept = JSON.parse(
      (
        await call(keptPath, {
          method: "POST",
          headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
          body: keptBytes,
        })
      ).text,
    ) as { file: { name: string } };

    // Fill the disk with uploads until the server refuses; every refusal must be a clean error.
    const size = 6 * 1024 * 1024;
    let stuck: { sessionPath: string; answer: { status: number; text: string } } | undefined;
    for (let index = 0; index < 12 && !stuck; index++) {
      const started = await call("/upload/v1beta/files", {
        method: "POST",
        headers: {
          "X-Goog-Upload-Protocol": "resumable",
          "X-Goog-Upload-Command": "start",
          "X-Goog-Upload-Header-Content-Length": String(size),
          "X-Goog-Upload-Header-Content-Type": "text/plain",
        },
        body: "{}",
      });
      if (started.status !== 200) {
        expectCleanError(started, "upload start on a full disk");
        break;
      }
      const url = new URL(started.headers.get("x-goog-upload-url")!);
      const sessionPath = `${url.pathname}${url.search}`;
      const answer = await call(sessionPath, {
        method: "POST",
        headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
        body: pattern(0, size),
      });
      if (answer.status !== 200) stuck = { sessionPath, answer };
    }
    expect(stuck, "the disk never filled up").toBeDefined();
    expectCleanError(stuck!.answer, "upload chunk on a full disk");
    expect(
      stuck!.answer.status,
      "a full disk is the server's condition, not the client's mistake",
    ).toBe(503);
    expect(JSON.parse(stuck!.answer.text).error.status).toBe("UNAVAILABLE");

    // Writes refused cleanly while full; reads carry on.
    const bigText = "x".repeat(2 * 1024 * 1024);
    const write = await call(`/api/conversations/${conversation.id}/messages`, {
      method: "POST",
      body: JSON.stringify({
        messages: [
          { id: "full-1", role: "user", content: { role: "user", parts: [{ text: bigText }] } },
        ],
      }),
    });
    if (write.status !== 200) {
      expectCleanError(write, "conversation write on a full disk");
      expect(write.status).toBe(503);
    }
    const cacheWrite = await call("/v1beta/cachedContents", {
      method: "POST",
      body: JSON.stringify({
        model: "models/gemini-2.5-flash",
        contents: [
          { role: "user", parts: [{ text: bigText.slice(0, 210_000).replace(/x{7}/g, "words ") }] },
        ],
      }),
    });
    if (cacheWrite.status !== 200) expectCleanError(cacheWrite, "cache create on a full disk");
    expect((await call(`/v1beta/${kept.file.name}`)).status).toBe(200);
    expect(
      (
        await call("/v1beta/models/gemini-2.5-flash:countTokens", {
          method: "POST",
          body: JSON.stringify({ contents: [{ parts: [{ text: "still counting" }] }] }),
        })
      ).status,
    ).toBe(200);
    const duringAudit = auditStore(dataDir, { readonly: true });
    expect(duringAudit.integrity).toBe("ok");
    expect(duringAudit.badActiveFiles).toEqual([]);

    // The operator frees space: the stuck upload resumes from what was kept and ends whole.
    fs.rmSync(ballast);
    for (const entry of fs.readdirSync(path.join(dataDir, "files"))) {
      if (!kept.file.name.endsWith(entry))
        await call(`/v1beta/files/${entry}`, { method: "DELETE" });
    }
    const query = await call(stuck!.sessionPath, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "query" },
    });
    expect(query.status).toBe(200);
    const held = Number(query.headers.get("x-goog-upload-size-received"));
    const resumed = await call(stuck!.sessionPath, {
      method: "POST",
      headers: {
        "X-Goog-Upload-Command": "upload, finalize",
        "X-Goog-Upload-Offset": String(held),
      },
      body: pattern(held, size - held),
    });
    expect(resumed.status, resumed.text).toBe(200);
    expect((JSON.parse(resumed.text) as { file: { sha256Hash: string } }).file.sha256Hash).toBe(
      serviceHash(pattern(0, size)),
    );
    const after = await call(`/api/conversations/${conversation.id}/messages`, {
      method: "POST",
      body: JSON.stringify({
        messages: [
          {
            id: "after-1",
            role: "user",
            content: { role: "user", parts: [{ text: "space again" }] },
          },
        ],
      }),
    });
    expect(after.status).toBe(200);

    // Killed and restarted on the same disk: nothing lost, nothing corrupt.
    await server.stop("SIGKILL");
    const offline = auditStore(dataDir);
    expect(offline.integrity).toBe("ok");
    expect(offline.badActiveFiles).toEqual([]);
    server = await startOwnServer({ dataDir, env: { STUDIO_RATE_LIMIT_PER_MINUTE: "0" } });
    const again = server.baseUrl;
    expect(
      (await fetch(`${again}/v1beta/${kept.file.name}`, { headers: { "x-goog-api-key": KEY } }))
        .status,
    ).toBe(200);
    expect(
      (await fetch(`${again}/v1beta/${cache.name}`, { headers: { "x-goog-api-key": KEY } })).status,
    ).toBe(200);
    const stored = (await (
      await fetch(`${again}/api/conversations/${conversation.id}`, {
        headers: { "x-goog-api-key": KEY },
      })
    ).json()) as { messages: { id: string }[] };
    expect(stored.messages.map((message) => message.id)).toContain("after-1");
    console.log(
      `full disk: refused with ${stuck!.answer.status} ${JSON.parse(stuck!.answer.text).error.status}; conversation write ${write.status}; cache create ${cacheWrite.status}; resumed upload from ${held} bytes; integrity ok`,
    );
  } catch (error) {
    console.log(`server log:\n${server?.log().slice(-6000)}`);
    throw error;
  } finally {
    await server?.stop("SIGKILL");
    try {
      // Lazy: the kernel detaches it once the last open handle (a dying server's) is closed.
      execFileSync("umount", ["-l", mountPoint], { stdio: "ignore" });
      fs.rmSync(mountPoint, { recursive: true, force: true });
    } catch (error) {
      console.warn(`could not remove the small disk at ${mountPoint}: ${(error as Error).message}`);
    }
  }
});
