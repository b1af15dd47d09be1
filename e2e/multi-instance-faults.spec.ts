/**
 * The fault specs (faults.spec.ts) with several instances: two production servers on one
 * PostgreSQL database and one shared DATA_DIR. kill -9 of one in the middle of uploads, cache
 * creates and conversation writes while the other keeps writing: the survivor serves on,
 * nothing either acknowledged is lost, no partial file is ACTIVE, the killed instance's uploads
 * resume on the survivor, and the restarted instance's start-up sweep removes orphan bytes but
 * never the partial file of an upload the survivor is receiving. A full shared directory (a
 * small tmpfs, as root) answers the service's 503 from either instance, shows no half-written
 * file to either, and the stuck upload finishes on the other instance once space is freed.
 * Needs TEST_DATABASE_URL (scripts/test.sh starts a server).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  JSON_HEADERS,
  KEY,
  newAcknowledged,
  pattern,
  startUpload,
  trickleChunk,
  waitFor,
  WriteLoad,
  type Acknowledged,
} from "./support/fault-load";
import { errorBodyProblems } from "./support/fuzz/oracle.mjs";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { auditSharedStore, serviceHash, type StoreAudit } from "./support/fuzz/store-audit";
import { TEST_SERVER_URL, createDatabase } from "./support/test-postgres";

test.skip(!TEST_SERVER_URL, "needs TEST_DATABASE_URL (scripts/test.sh starts a PostgreSQL server)");
test.describe.configure({ mode: "serial", timeout: 300_000 });

const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 2);

function instanceEnv(databaseUrl: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, STUDIO_RATE_LIMIT_PER_MINUTE: "0" };
}

async function get(baseUrl: string, route: string): Promise<Response> {
  return fetch(`${baseUrl}${route}`, { headers: { "x-goog-api-key": KEY } });
}

/** Every acknowledged write is there, read through `servers` in turn. */
async function expectAcknowledged(
  servers: OwnServer[],
  acknowledged: Acknowledged,
): Promise<number> {
  let checked = 0;
  const next = () => servers[checked++ % servers.length]!.baseUrl;
  for (const [name, hash] of acknowledged.files) {
    let last = "";
    const base = next();
    const file = await waitFor(async () => {
      const response = await get(base, `/v1beta/${name}`);
      last = await response.text();
      const body = JSON.parse(last) as { state?: string; sha256Hash?: string };
      return body.state === "ACTIVE" ? body : undefined;
    });
    expect(file, `${name} is not ACTIVE: ${last}`).toBeDefined();
    expect(file!.sha256Hash).toBe(hash);
  }
  for (const name of acknowledged.caches)
    expect((await get(next(), `/v1beta/${name}`)).status, `${name} was acknowledged`).toBe(200);
  for (const [id, messages] of acknowledged.conversations) {
    const response = await get(next(), `/api/conversations/${id}`);
    expect(response.status, `conversation ${id} was acknowledged but is gone`).toBe(200);
    const stored = (
      (await response.json()) as {
        messages: { id: string; content: { parts: { text: string }[] } }[];
      }
    ).messages;
    expect(
      stored
        .slice(0, messages.length)
        .map((message) => [message.id, message.content.parts[0]!.text.length]),
    ).toEqual(messages.map((message) => [message.id, message.length]));
    expect(stored.length - messages.length).toBeLessThanOrEqual(1);
    checked += messages.length;
  }
  return checked;
}

/** Every interrupted upload resumes on `server` from what it says it holds, and ends whole. */
async function resumeUploads(server: OwnServer, acknowledged: Acknowledged): Promise<number> {
  let resumed = 0;
  for (const [sessionPath, { declared, received }] of acknowledged.uploads) {
    const query = await fetch(`${server.baseUrl}${sessionPath}`, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "query" },
    });
    expect(query.status).toBe(200);
    const held = Number(query.headers.get("x-goog-upload-size-received"));
    expect(held, "acknowledged bytes of an upload were lost").toBeGreaterThanOrEqual(received);
    let file: { name: string; sha256Hash: string };
    if (query.headers.get("x-goog-upload-status") === "final") {
      file = ((await query.json()) as { file: typeof file }).file;
    } else {
      const final = await fetch(`${server.baseUrl}${sessionPath}`, {
        method: "POST",
        headers: {
          "X-Goog-Upload-Command": "upload, finalize",
          "X-Goog-Upload-Offset": String(held),
        },
        body: pattern(held, declared - held),
      });
      expect(final.status, await final.clone().text()).toBe(200);
      file = ((await final.json()) as { file: typeof file }).file;
    }
    expect(file.sha256Hash).toBe(serviceHash(pattern(0, declared)));
    acknowledged.files.set(file.name, file.sha256Hash);
    resumed++;
  }
  acknowledged.uploads.clear();
  return resumed;
}

function expectSound(audit: StoreAudit, label: string): void {
  expect(audit.badActiveFiles, label).toEqual([]);
  expect(audit.shortSessions, label).toEqual([]);
}

test("kill -9 of one of two instances mid-write: the other serves on, nothing acknowledged is lost, nothing partial is ACTIVE, uploads resume on the survivor", async () => {
  const databaseUrl = await createDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-multi-faults-"));
  const acknowledged = newAcknowledged();
  const env = instanceEnv(databaseUrl);
  const started = await Promise.all([
    startOwnServer({ dataDir, env }),
    startOwnServer({ dataDir, env }),
  ]);
  let victim = started[0];
  const survivor = started[1];
  let checked = 0;
  let resumed = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const onVictim = new WriteLoad(victim.baseUrl, acknowledged, round);
      const onSurvivor = new WriteLoad(survivor.baseUrl, acknowledged, 100 + round);
      await new Promise((resolve) => setTimeout(resolve, 800 + round * 600));
      const allBusy = await waitFor(() => (onVictim.allBusy() ? true : undefined), 20_000);
      await victim.stop("SIGKILL");
      await onVictim.stop();
      expect(allBusy, "the kill did not land while all three kinds of write were in flight").toBe(
        true,
      );
      // The survivor goes on writing through the kill and after it (a write answered anything
      // but 200 fails its loop); what is visible meanwhile is whole.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expectSound(await auditSharedStore(dataDir, databaseUrl), "while the survivor writes");
      await onSurvivor.stop();
      const audit = await auditSharedStore(dataDir, databaseUrl);
      expectSound(audit, "after the kill");
      expect(audit.orphanParts).toEqual([]);

      // An upload the survivor is receiving while the victim restarts: its partial bytes are
      // no orphan, whatever the restarted instance's sweep thinks of the directory.
      const size = 2 * 1024 * 1024;
      const live = await startUpload(survivor.baseUrl, size);
      const half = await trickleChunk(survivor.baseUrl, live, pattern(0, size / 2), 0, false);
      expect("status" in half && half.status).toBe(200);
      // Bytes nothing refers to, as a crash between two steps can leave them.
      fs.writeFileSync(path.join(dataDir, "uploads", `orphan${round}.part`), pattern(0, 65_536));
      fs.writeFileSync(path.join(dataDir, "files", `orphan${round}`), pattern(0, 65_536));

      victim = await startOwnServer({ dataDir, env });
      // The file store (and its start-up sweep) starts with the first API request.
      expect((await get(victim.baseUrl, "/v1beta/files")).status).toBe(200);
      const swept = await waitFor(async () => {
        const now = await auditSharedStore(dataDir, databaseUrl);
        return now.orphanFiles.length === 0 && now.orphanParts.length === 0 ? now : undefined;
      });
      expect(swept, "orphan bytes are still there after the start-up sweep").toBeDefined();
      expectSound(swept!, "after the sweep");
      const rest = await fetch(`${survivor.baseUrl}${live}`, {
        method: "POST",
        headers: {
          "X-Goog-Upload-Command": "upload, finalize",
          "X-Goog-Upload-Offset": String(size / 2),
        },
        body: pattern(size / 2, size / 2),
      });
      expect(rest.status, "the survivor's upload lost its partial bytes to the sweep").toBe(200);
      const file = ((await rest.json()) as { file: { name: string; sha256Hash: string } }).file;
      expect(file.sha256Hash).toBe(serviceHash(pattern(0, size)));
      acknowledged.files.set(file.name, file.sha256Hash);

      // Both instances read everything either acknowledged; the victim's uploads resume on
      // the survivor.
      resumed += await resumeUploads(survivor, acknowledged);
      checked += await expectAcknowledged([victim, survivor], acknowledged);
    }
    const final = await auditSharedStore(dataDir, databaseUrl);
    expectSound(final, "at the end");
    expect(final.orphanFiles).toEqual([]);
    console.log(
      `multi-instance faults: ${ROUNDS} kill -9 of one of two instances mid-write; ${checked} acknowledged writes read back through both, 0 lost; ${resumed} interrupted uploads finished on the survivor; store ${JSON.stringify(final.counts)}`,
    );
  } finally {
    await victim.stop("SIGKILL");
    await survivor.stop("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// ------------------------------------------------------------------ a full shared directory

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

test("a full shared directory: the service's 503 from either instance, nothing half-written visible to any, and the stuck upload finishes on the other once space is freed", async () => {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-small-shared-"));
  test.skip(
    !mountSmallDisk(mountPoint, 40),
    "needs root (or CAP_SYS_ADMIN) to mount a small tmpfs as the shared DATA_DIR",
  );
  const dataDir = path.join(mountPoint, "data");
  const ballast = path.join(mountPoint, "ballast");
  const databaseUrl = await createDatabase();
  const env = instanceEnv(databaseUrl);
  let servers: OwnServer[] = [];
  try {
    fs.writeFileSync(ballast, Buffer.alloc(4 * 1024 * 1024, 1));
    servers = await Promise.all([
      startOwnServer({ dataDir, env }),
      startOwnServer({ dataDir, env }),
    ]);
    const [one, two] = servers as [OwnServer, OwnServer];
    const call = async (server: OwnServer, route: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.baseUrl}${route}`, {
        ...init,
        headers: { ...JSON_HEADERS, ...(init.headers as Record<string, string> | undefined) },
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    };
    const listed = async (server: OwnServer) =>
      (
        (
          JSON.parse((await call(server, "/v1beta/files?pageSize=100")).text) as {
            files?: { name: string; state: string; sizeBytes: string }[];
          }
        ).files ?? []
      ).map((file) => `${file.name} ${file.state} ${file.sizeBytes}`);
    const size = 6 * 1024 * 1024;
    const finished = new Set<string>();

    // Fill the directory with uploads through instance one until it refuses; each refusal is
    // the service's error body.
    let stuck: { sessionPath: string; answer: { status: number; text: string } } | undefined;
    for (let index = 0; index < 12 && !stuck; index++) {
      const started = await call(one, "/upload/v1beta/files", {
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
        expectCleanError(started, "upload start on a full directory");
        break;
      }
      const url = new URL(started.headers.get("x-goog-upload-url")!);
      const sessionPath = `${url.pathname}${url.search}`;
      const answer = await call(one, sessionPath, {
        method: "POST",
        headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
        body: pattern(0, size),
      });
      if (answer.status === 200)
        finished.add(
          `${(JSON.parse(answer.text) as { file: { name: string } }).file.name} ACTIVE ${size}`,
        );
      else stuck = { sessionPath, answer };
    }
    expect(stuck, "the directory never filled up").toBeDefined();
    expectCleanError(stuck!.answer, "upload chunk on a full directory");
    expect(stuck!.answer.status).toBe(503);
    expect(JSON.parse(stuck!.answer.text).error.status).toBe("UNAVAILABLE");

    // Instance two on the same full directory: an upload refused the same way.
    const other = await startUpload(two.baseUrl, size);
    const refused = await call(two, other, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "upload, finalize", "X-Goog-Upload-Offset": "0" },
      body: pattern(0, size),
    });
    expectCleanError(refused, "upload chunk on the other instance");
    expect(refused.status).toBe(503);

    // Nothing half-written is visible: each instance lists exactly the files that finished,
    // whole, and every ACTIVE row has its exact bytes.
    for (const server of servers)
      expect((await listed(server)).sort()).toEqual([...finished].sort());
    expectSound(await auditSharedStore(dataDir, databaseUrl), "while the directory is full");
    // What does not need the directory carries on, on both.
    for (const server of servers) {
      const counted = await call(server, "/v1beta/models/gemini-2.5-flash:countTokens", {
        method: "POST",
        body: JSON.stringify({ contents: [{ parts: [{ text: "still counting" }] }] }),
      });
      expect(counted.status).toBe(200);
    }

    // The operator frees space: the upload stuck on instance one finishes on instance two.
    fs.rmSync(ballast);
    for (const entry of [...finished]) {
      const name = entry.split(" ")[0]!;
      expect((await call(two, `/v1beta/${name}`, { method: "DELETE" })).status).toBe(200);
    }
    const query = await call(two, stuck!.sessionPath, {
      method: "POST",
      headers: { "X-Goog-Upload-Command": "query" },
    });
    expect(query.status).toBe(200);
    const held = Number(query.headers.get("x-goog-upload-size-received"));
    const resumed = await call(two, stuck!.sessionPath, {
      method: "POST",
      headers: {
        "X-Goog-Upload-Command": "upload, finalize",
        "X-Goog-Upload-Offset": String(held),
      },
      body: pattern(held, size - held),
    });
    expect(resumed.status, resumed.text).toBe(200);
    const file = (JSON.parse(resumed.text) as { file: { name: string; sha256Hash: string } }).file;
    expect(file.sha256Hash).toBe(serviceHash(pattern(0, size)));
    expect((await call(one, `/v1beta/${file.name}`)).status).toBe(200);
    const final = await auditSharedStore(dataDir, databaseUrl);
    expectSound(final, "after space was freed");
    console.log(
      `full shared directory: refused with ${stuck!.answer.status} on instance one and ${refused.status} on instance two; ${finished.size} whole files listed on both, no partial one; the stuck upload resumed on instance two from ${held} bytes`,
    );
  } finally {
    for (const server of servers) await server.stop("SIGKILL");
    try {
      // Lazy: the kernel detaches it once the last open handle (a dying server's) is closed.
      execFileSync("umount", ["-l", mountPoint], { stdio: "ignore" });
      fs.rmSync(mountPoint, { recursive: true, force: true });
    } catch (error) {
      console.warn(`could not remove the small disk at ${mountPoint}: ${(error as Error).message}`);
    }
  }
});
