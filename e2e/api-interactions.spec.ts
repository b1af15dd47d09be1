/**
 * The Interactions API over HTTP, in both modes (the local engine with two studio keys, and
 * the gateway chained to a local engine): tenants never reach each other's interactions or
 * the resources a body names, wherever in the body; bad input gets this API's error body
 * (`{"error": {"message", "code"}}`) with the right status, never a 5xx; the stream is framed
 * as the service frames it.
 */
import { expect, test } from "@playwright/test";
import {
  GATEWAY_KEYS,
  STUDIO_KEYS,
  gatewayServer,
  keyedServer,
  type ServerInfo,
} from "./support/servers";

const MODEL = "gemini-2.5-flash-lite";
const QUICK = { max_output_tokens: 16 };

interface Tenants {
  server: ServerInfo;
  owner: string;
  intruder: string;
}

const SETUPS: [string, Tenants][] = [
  ["local engine", { server: keyedServer, owner: STUDIO_KEYS.alice, intruder: STUDIO_KEYS.bob }],
  ["gateway", { server: gatewayServer, owner: GATEWAY_KEYS.alice, intruder: GATEWAY_KEYS.bob }],
];

interface Answer {
  status: number;
  type: string | null;
  text: string;
  json: { error?: { code?: unknown; message?: unknown } } & Record<string, unknown>;
}

async function call(
  server: ServerInfo,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}/v1beta/${path}`, {
    method,
    headers: {
      "x-goog-api-key": key,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { status: response.status, type: response.headers.get("content-type"), text, json };
}

/** This API's error body, with its status. */
function expectError(answer: Answer, status: number, code: string, mentions?: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.type).toContain("application/json");
  expect(answer.json.error?.code).toBe(code);
  expect(typeof answer.json.error?.message).toBe("string");
  if (mentions) expect(String(answer.json.error?.message)).toContain(mentions);
}

async function uploadText(tenants: Tenants, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const start = await fetch(`${tenants.server.baseUrl}/upload/v1beta/files`, {
    method: "POST",
    headers: {
      "x-goog-api-key": tenants.owner,
      "x-goog-upload-protocol": "resumable",
      "x-goog-upload-command": "start",
      "x-goog-upload-header-content-length": String(bytes.length),
      "x-goog-upload-header-content-type": "text/plain",
      "content-type": "application/json",
    },
    body: JSON.stringify({ file: { displayName: "notes" } }),
  });
  const final = await fetch(start.headers.get("x-goog-upload-url")!, {
    method: "POST",
    headers: { "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" },
    body: bytes,
  });
  const file = ((await final.json()) as { file: { uri: string } }).file;
  return file.uri;
}

for (const [mode, tenants] of SETUPS) {
  test.describe(`interactions over HTTP [${mode}]`, () => {
    const { server, owner, intruder } = tenants;

    test("another tenant's interaction is answered as a missing one, and stays its owner's", async () => {
      const created = await call(server, owner, "POST", "interactions", {
        model: MODEL,
        input: "Hello.",
        generation_config: QUICK,
      });
      expect(created.status, created.text).toBe(200);
      expect(created.type).toBe("application/json");
      const id = String(created.json.id);
      const missing = await call(server, owner, "GET", "interactions/v1_nothing-here");
      expectError(missing, 404, "not_found");
      for (const [method, path] of [
        ["GET", `interactions/${id}`],
        ["GET", `interactions/${id}?stream=true`],
        ["POST", `interactions/${id}/cancel`],
        ["DELETE", `interactions/${id}`],
      ] as const) {
        const answer = await call(server, intruder, method, path);
        expectError(answer, 404, "not_found");
        expect(answer.json.error?.message).toBe(
          String(missing.json.error?.message).replace("v1_nothing-here", id),
        );
      }
      const continued = await call(server, intruder, "POST", "interactions", {
        model: MODEL,
        input: "What did I say?",
        previous_interaction_id: id,
      });
      expectError(continued, 400, "invalid_request", "previous_interaction_id");
      const stillThere = await call(server, owner, "GET", `interactions/${id}`);
      expect(stillThere.status).toBe(200);
      expect(stillThere.json.id).toBe(id);
      const continuing = await call(server, owner, "POST", "interactions", {
        model: MODEL,
        input: "What did I say?",
        previous_interaction_id: id,
        generation_config: QUICK,
      });
      expect(continuing.status, continuing.text).toBe(200);
    });

    test("a resource named anywhere in the body must be the caller's", async () => {
      const uri = await uploadText(tenants, "The harbour log lists seventeen herring boats.");
      const name = `files/${uri.split("/files/")[1]}`;
      const ask = (content: Record<string, unknown>) => ({
        model: MODEL,
        input: [{ type: "text", text: "Summarise." }, content],
        generation_config: QUICK,
      });
      for (const spelling of [uri, name]) {
        const own = await call(
          server,
          owner,
          "POST",
          "interactions",
          ask({
            type: "document",
            uri: spelling,
            mime_type: "text/plain",
          }),
        );
        expect(own.status, own.text).toBe(200);
        const foreign = await call(
          server,
          intruder,
          "POST",
          "interactions",
          ask({
            type: "document",
            uri: spelling,
            mime_type: "text/plain",
          }),
        );
        expectError(foreign, 403, "permission_denied");
      }
      // A name in a field no version of this API has: the gateway, which forwards such fields,
      // refuses it all the same; the local engine refuses the field itself.
      const hidden = await call(server, intruder, "POST", "interactions", {
        model: MODEL,
        input: "Hi",
        labels_of_tomorrow: { source: name },
      });
      expect([400, 403]).toContain(hidden.status);
      expect(typeof hidden.json.error?.code).toBe("string");
      if (mode === "gateway") expectError(hidden, 403, "permission_denied");
    });

    test("bad input gets this API's error body with the right status", async () => {
      const cases: [string, string, unknown, number, string?][] = [
        ["POST", "interactions", "{not json", 400],
        ["POST", "interactions", [1, 2], 400],
        ["POST", "interactions", { model: MODEL }, 400, "input"],
        ["POST", "interactions", { model: MODEL, input: 7 }, 400, "input"],
        ["POST", "interactions", { model: MODEL, input: "x", stream: "yes" }, 400, "stream"],
        ["POST", "interactions", { model: MODEL, input: "x", background: true }, 400, "background"],
        ["POST", "interactions", { model: "gemini-0-nothing", input: "x" }, 404],
        [
          "POST",
          "interactions",
          { agent: "deep-research-pro-preview-12-2025", input: "x" },
          400,
          "background",
        ],
        ["POST", "interactions", { model: MODEL, input: [{ type: "image" }] }, 400, "input[0]"],
        ["GET", "interactions/v1_nothing?stream=maybe", undefined, 400, "stream"],
      ];
      for (const [method, path, body, status, mentions] of cases) {
        const answer = await call(server, owner, method, path, body);
        expectError(answer, status, status === 404 ? "not_found" : "invalid_request", mentions);
      }
      const created = await call(server, owner, "POST", "interactions", {
        model: MODEL,
        input: "Hi.",
        generation_config: QUICK,
      });
      const id = String(created.json.id);
      expectError(
        await call(server, owner, "GET", `interactions/${id}?stream=true&last_event_id=evt_zz`),
        400,
        "invalid_request",
        "last_event_id",
      );
      expectError(
        await call(server, owner, "GET", `interactions/${id}?last_event_id=evt_0`),
        400,
        "invalid_request",
        "last_event_id",
      );
      expectError(
        await call(server, owner, "POST", `interactions/${id}/cancel`),
        400,
        "invalid_request",
      );
    });

    test("a stream is framed as the service frames it", async () => {
      const answer = await call(server, owner, "POST", "interactions", {
        model: MODEL,
        input: "Count to three.",
        generation_config: QUICK,
        stream: true,
      });
      expect(answer.status).toBe(200);
      expect(answer.type).toBe("text/event-stream");
      const blocks = answer.text.split("\n\n");
      expect(blocks.pop()).toBe("");
      expect(blocks.at(-1)).toBe("event: done\ndata: [DONE]");
      const events = blocks.slice(0, -1).map((block) => {
        const match = /^event: ([a-z._]+)\ndata: (\{.*\})$/.exec(block);
        expect(match, block).not.toBeNull();
        const data = JSON.parse(match![2]!) as { event_type: string };
        expect(data.event_type).toBe(match![1]);
        return data;
      });
      expect(events[0]!.event_type).toBe("interaction.created");
      expect(events.at(-1)!.event_type).toBe("interaction.completed");
    });
  });
}
