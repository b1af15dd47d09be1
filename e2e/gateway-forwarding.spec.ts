/**
 * A gateway forwards what it does not model, over HTTP end to end: bodies reach the upstream
 * byte for byte (small ones read on the request's thread, large ones in the body reader
 * worker, which hands the bytes back), unknown fields included, the studio's file URIs written
 * the upstream's way; the local engine still refuses what the service refuses; a method the
 * gateway does not know is the service's 404 unless GATEWAY_FORWARD_METHODS lists it.
 * A gateway of this spec's own, in front of the test upstream (e2e/support/test-upstream.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";
import { startTestUpstream, type TestUpstream } from "./support/test-upstream";
import { STUDIO_KEYS, keyedServer } from "./support/servers";
import { uploadResumable } from "./support/api";

const KEYS = { alice: "forward-alice-key-0123456789", bob: "forward-bob-key-0123456789ab" };
const UPSTREAM_KEY = "forward-upstream-key-0123456789";

let upstream: TestUpstream;
let gateway: OwnServer;
let dataDir: string;
let unique = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  upstream = await startTestUpstream();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-e2e-forwarding-"));
  gateway = await startOwnServer({
    dataDir,
    env: {
      GEMINI_API_KEY: UPSTREAM_KEY,
      GEMINI_BASE_URL: upstream.url,
      STUDIO_API_KEYS: `alice:${KEYS.alice},bob:${KEYS.bob}`,
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
      GATEWAY_FORWARD_METHODS: "POST models/*:echoRequest",
    },
  });
});

test.afterAll(async () => {
  await gateway?.stop("SIGTERM");
  await upstream?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function model(): string {
  return `ok-${process.pid}x${++unique}`;
}

async function post(baseUrl: string, key: string, route: string, body: string) {
  const response = await fetch(`${baseUrl}/v1beta/${route}`, {
    method: "POST",
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** A body with fields the gateway does not know, lower-case schema types, and `filler` characters of text. */
function futureBody(filler: number, fileUri?: string): string {
  return `{"contents": [{"role": "user", "parts": [{"text": "${"x".repeat(filler)}", "futurePartField": {"level": 3}}${
    fileUri ? `, {"file_data": {"file_uri": "${fileUri}"}}` : ""
  }]}],
 "generationConfig": {"futureKnob": "on", "responseMimeType": "application/json",
   "responseSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
 "futureTopLevel": [1, 2.50]}`;
}

async function uploadAs(key: string): Promise<{ name: string; uri: string }> {
  return uploadResumable(gateway.baseUrl, key, Buffer.from("rivers and valleys"), {
    contentType: "text/plain",
  });
}

test("unknown fields reach the upstream byte for byte, on the request's thread and through the body reader worker", async () => {
  for (const filler of [10, 200_000, 2_000_000]) {
    const name = model();
    const body = futureBody(filler);
    const answer = await post(gateway.baseUrl, KEYS.alice, `models/${name}:generateContent`, body);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const [seen] = upstream.requestsFor(name);
    expect(seen!.bodyBytes, `${filler}`).toBe(Buffer.byteLength(body));
    expect(seen!.bodyText, `${filler}`).toBe(body.slice(0, seen!.bodyText.length));
    if (filler === 10) {
      expect(seen!.bodyText).toBe(body);
      expect(seen!.bodyText).toContain('"type": "object"');
    }
  }
});

test("the studio's file URI is written as the upstream's, in a large body too; another's file is refused", async () => {
  const file = await uploadAs(KEYS.alice);
  expect(file.uri.startsWith(gateway.baseUrl)).toBe(true);
  const upstreamUri = `${upstream.url}/v1beta/${file.name}`;
  for (const filler of [10, 2_000_000]) {
    const name = model();
    const body = futureBody(filler, file.uri);
    const answer = await post(gateway.baseUrl, KEYS.alice, `models/${name}:countTokens`, body);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const [seen] = upstream.requestsFor(name);
    const expected = body.replace(file.uri, upstreamUri);
    expect(seen!.bodyBytes).toBe(Buffer.byteLength(expected));
    if (filler === 10) expect(seen!.bodyText).toBe(expected);
    const refused = await post(gateway.baseUrl, KEYS.bob, `models/${name}:countTokens`, body);
    expect(refused.status).toBe(403);
    const hidden = `{"contents": [{"parts": [{"text": "hi"}]}], "futureSource": {"uri": "${file.name}"}}`;
    const alsoRefused = await post(gateway.baseUrl, KEYS.bob, `models/${name}:countTokens`, hidden);
    expect(alsoRefused.status, alsoRefused.text).toBe(403);
    expect(upstream.requestsFor(name)).toHaveLength(1);
  }
});

test("the local engine refuses the same fields as the service does", async () => {
  const answer = await post(
    keyedServer.baseUrl,
    STUDIO_KEYS.alice,
    "models/gemini-2.5-flash:generateContent",
    futureBody(10),
  );
  expect(answer.status).toBe(400);
  expect(answer.text).toContain(
    `Unknown name \\"futurePartField\\" at 'contents[0].parts[0]': Cannot find field.`,
  );
});

test("a method the gateway does not know is the service's 404 unless the operator lists it", async () => {
  const name = model();
  const unlisted = await post(gateway.baseUrl, KEYS.alice, `models/${name}:futureMethod`, "{}");
  expect(unlisted.status).toBe(404);
  expect(JSON.parse(unlisted.text)).toMatchObject({ error: { status: "NOT_FOUND" } });
  expect(upstream.requestsFor(name)).toEqual([]);
  const body = `{"input": {"text": "hi"}, "n": 1.50}`;
  const listed = await post(gateway.baseUrl, KEYS.alice, `models/${name}:echoRequest`, body);
  expect(listed.status, listed.text).toBe(200);
  expect(JSON.parse(listed.text)).toMatchObject({ body, keyReceived: "[redacted]" });
  expect(listed.text).not.toContain(UPSTREAM_KEY);
});
