/**
 * Writes that a fault spec keeps on the wire while it kills a server: resumable uploads sent
 * as trickled chunks, cache creates big enough to take a while, and large conversation
 * messages. Each write the server acknowledged is recorded, so the spec can check after a
 * restart (or on another instance) that none was lost. Shared by faults.spec.ts (one server)
 * and multi-instance-faults.spec.ts (two instances on one PostgreSQL and one directory).
 */
import http from "node:http";
import { serviceHash } from "./fuzz/store-audit";

export const KEY = "genstudio-dev-key";
export const JSON_HEADERS = { "x-goog-api-key": KEY, "content-type": "application/json" };

/** The byte at `index` of every upload here (printable text, so the files become ACTIVE), so a byte at a wrong offset shows in the hash. */
export function pattern(start: number, length: number): Buffer<ArrayBuffer> {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++)
    bytes[index] = 33 + (((start + index) * 131 + 17) % 94);
  return bytes;
}

export async function startUpload(baseUrl: string, size: number): Promise<string> {
  const response = await fetch(`${baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      ...JSON_HEADERS,
      "X-Goog-Upload-Protocol": "resumable",
      "X-Goog-Upload-Command": "start",
      "X-Goog-Upload-Header-Content-Length": String(size),
      "X-Goog-Upload-Header-Content-Type": "text/plain",
    },
    body: JSON.stringify({ file: { displayName: "fault" } }),
  });
  if (response.status !== 200)
    throw new Error(`upload start: ${response.status} ${await response.text()}`);
  const url = new URL(response.headers.get("x-goog-upload-url")!);
  return `${url.pathname}${url.search}`;
}

/** Sends one chunk as a trickle (so a kill can land inside it); resolves with the answer or the connection error. */
export function trickleChunk(
  baseUrl: string,
  sessionPath: string,
  bytes: Buffer,
  offset: number,
  finalize: boolean,
): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const request = http.request(`${baseUrl}${sessionPath}`, {
      method: "POST",
      headers: {
        "X-Goog-Upload-Command": finalize ? "upload, finalize" : "upload",
        "X-Goog-Upload-Offset": String(offset),
        "Content-Length": String(bytes.length),
      },
    });
    request.on("error", (error) => resolve({ error: error.message }));
    request.on("response", (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", (error) => resolve({ error: error.message }));
    });
    let sent = 0;
    const step = () => {
      if (sent >= bytes.length || request.destroyed) return void request.end();
      request.write(bytes.subarray(sent, sent + 128 * 1024));
      sent += 128 * 1024;
      setTimeout(step, 5);
    };
    step();
  });
}

/** Which kinds of write have a request on the wire right now, per server. */
export type InFlight = { upload: number; cache: number; conversation: number };

async function tracked<T>(
  inFlight: InFlight,
  kind: keyof InFlight,
  work: () => Promise<T>,
): Promise<T> {
  inFlight[kind]++;
  try {
    return await work();
  } finally {
    inFlight[kind]--;
  }
}

export interface Acknowledged {
  /** Upload session path → bytes the server acknowledged, with the size declared. */
  uploads: Map<string, { declared: number; received: number }>;
  files: Map<string, string>;
  caches: Set<string>;
  /** Conversation id → acknowledged message ids in order, and the length of each text. */
  conversations: Map<string, { id: string; length: number }[]>;
}

async function postJson(
  baseUrl: string,
  route: string,
  body: unknown,
): Promise<{ status: number; json: unknown } | null> {
  try {
    const response = await fetch(`${baseUrl}${route}`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  } catch {
    return null;
  }
}

/** Uploads in 1 MiB trickled chunks until the server dies. */
async function uploadLoop(
  baseUrl: string,
  inFlight: InFlight,
  acknowledged: Acknowledged,
  stopped: () => boolean,
): Promise<void> {
  while (!stopped()) {
    const declared = 3 * 1024 * 1024 + 4321;
    let sessionPath: string;
    try {
      sessionPath = await startUpload(baseUrl, declared);
    } catch {
      return;
    }
    acknowledged.uploads.set(sessionPath, { declared, received: 0 });
    let received = 0;
    while (received < declared) {
      const length = Math.min(1024 * 1024, declared - received);
      const finalize = received + length === declared;
      const answer = await tracked(inFlight, "upload", () =>
        trickleChunk(baseUrl, sessionPath, pattern(received, length), received, finalize),
      );
      if ("error" in answer) return;
      if (answer.status !== 200) throw new Error(`chunk answered ${answer.status}: ${answer.text}`);
      received += length;
      acknowledged.uploads.set(sessionPath, { declared, received });
      if (finalize) {
        const file = (JSON.parse(answer.text) as { file: { name: string } }).file;
        acknowledged.files.set(file.name, serviceHash(pattern(0, declared)));
        acknowledged.uploads.delete(sessionPath);
      }
    }
  }
}

/** Creates caches big enough to take a while to count, until the server dies. */
async function cacheLoop(
  baseUrl: string,
  inFlight: InFlight,
  acknowledged: Acknowledged,
  stopped: () => boolean,
  round: number,
): Promise<void> {
  for (let index = 0; !stopped(); index++) {
    const text =
      `Round ${round} cache ${index}: the ledger lists every cargo and its port of call. `.repeat(
        1500,
      );
    const answer = await tracked(inFlight, "cache", () =>
      postJson(baseUrl, "/v1beta/cachedContents", {
        model: "models/gemini-2.5-flash",
        contents: [{ role: "user", parts: [{ text }] }],
        ttl: "86400s",
      }),
    );
    if (answer === null) return;
    if (answer.status !== 200)
      throw new Error(`cache create answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    acknowledged.caches.add((answer.json as { name: string }).name);
  }
}

/** Appends large messages to fresh conversations until the server dies. */
async function conversationLoop(
  baseUrl: string,
  inFlight: InFlight,
  acknowledged: Acknowledged,
  stopped: () => boolean,
  round: number,
): Promise<void> {
  while (!stopped()) {
    const created = await postJson(baseUrl, "/api/conversations", {
      title: `fault round ${round}`,
      settings: { model: "models/gemini-2.5-flash" },
    });
    if (created === null) return;
    if (created.status !== 200) throw new Error(`conversation create answered ${created.status}`);
    const id = (created.json as { id: string }).id;
    const messages: { id: string; length: number }[] = [];
    acknowledged.conversations.set(id, [...messages]);
    for (let index = 0; index < 6 && !stopped(); index++) {
      const text = `message ${index} of round ${round} `.repeat(20_000 + index * 1000);
      const message = {
        id: `r${round}-m${index}`,
        role: index % 2 ? "model" : "user",
        content: { role: index % 2 ? "model" : "user", parts: [{ text }] },
      };
      const answer = await tracked(inFlight, "conversation", () =>
        postJson(baseUrl, `/api/conversations/${id}/messages`, { messages: [message] }),
      );
      if (answer === null) return;
      if (answer.status !== 200)
        throw new Error(`message append answered ${answer.status}: ${JSON.stringify(answer.json)}`);
      messages.push({ id: message.id, length: text.length });
      acknowledged.conversations.set(id, [...messages]);
    }
  }
}

export function newAcknowledged(): Acknowledged {
  return { uploads: new Map(), files: new Map(), caches: new Set(), conversations: new Map() };
}

/** The three loops against one server until `stop()` or until the server dies. */
export class WriteLoad {
  readonly inFlight: InFlight = { upload: 0, cache: 0, conversation: 0 };
  private stopped = false;
  /** Settles when every loop has ended; rejects when a write got an answer other than 200. */
  readonly done: Promise<void>;

  constructor(baseUrl: string, acknowledged: Acknowledged, round: number) {
    const stopped = () => this.stopped;
    this.done = Promise.all([
      uploadLoop(baseUrl, this.inFlight, acknowledged, stopped),
      cacheLoop(baseUrl, this.inFlight, acknowledged, stopped, round),
      conversationLoop(baseUrl, this.inFlight, acknowledged, stopped, round),
    ]).then(() => undefined);
  }

  /** True while an upload chunk, a cache create and a conversation write are all on the wire. */
  allBusy(): boolean {
    return Boolean(this.inFlight.upload && this.inFlight.cache && this.inFlight.conversation);
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
