import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { InteractionEvent } from "@/lib/gemini/interactions/types";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";
import { testUpstreamBackend, testUpstreamSettings } from "@/lib/testing/upstream-backend";
import { notingDispatchers, type NotedExchanges } from "@/lib/testing/noting-dispatchers";
import { readForwardedBody } from "@/lib/server/http/body-readers";
import type { UpstreamBackend } from "./upstream-backend";
import { UpstreamClient } from "./upstream-client";

/**
 * The gateway's Interactions API in front of a stand-in upstream that answers as the recorded
 * service does: bodies go upstream byte for byte once every resource they name is the
 * caller's, created interactions become their creator's, get, cancel, delete and
 * continuations reach the upstream only for the owner, streams pass through event by event,
 * and the upstream's own error body keeps its words.
 */

const as = (ownerId: string) => ({ caller: { ownerId }, signal: new AbortController().signal });
const alice = as("key:alice");
const bob = as("key:bob");

interface Seen {
  method: string;
  url: string;
  body: string;
}

function interaction(id: string, status = "completed") {
  return { id, status, object: "interaction", model: "gemini-2.5-flash" };
}

function fakeUpstream(seen: Seen[]): http.Server {
  let created = 0;
  return http.createServer((request, response) => {
    let body = "";
    request.on("data", (piece: Buffer) => (body += piece.toString()));
    request.on("end", () => {
      const url = request.url ?? "/";
      seen.push({ method: request.method ?? "GET", url, body });
      const json = (value: unknown, status = 200) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(value));
      };
      if (body.includes('"refuse"'))
        return json({ error: { message: "Unknown name 'refuse'.", code: "invalid_request" } }, 400);
      if (request.method === "POST" && url === "/v1beta/interactions") {
        const id = `v1_made${++created}`;
        if (!body.includes('"stream":true')) return json(interaction(id));
        response.writeHead(200, { "content-type": "text/event-stream" });
        const events = [
          { interaction: interaction(id, "in_progress"), event_type: "interaction.created" },
          { index: 0, delta: { text: "Hi", type: "text" }, event_type: "step.delta" },
          { interaction: interaction(id), event_type: "interaction.completed" },
        ];
        for (const event of events)
          response.write(`event: ${event.event_type}\ndata: ${JSON.stringify(event)}\n\n`);
        return response.end("event: done\ndata: [DONE]\n\n");
      }
      if (request.method === "DELETE") return json({});
      if (url.endsWith("/cancel")) return json(interaction(url.split("/")[3]!, "cancelled"));
      json(interaction(url.split("/")[3]!.split("?")[0]!));
    });
  });
}

async function refusal(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

async function collect(events: AsyncIterable<InteractionEvent>): Promise<InteractionEvent[]> {
  const list: InteractionEvent[] = [];
  for await (const event of events) list.push(event);
  return list;
}

/** A create as the handler hands it to the gateway: what it must know of the body, its bytes kept. */
function create(text: string, as: { caller: { ownerId: string }; signal: AbortSignal }) {
  const source = { bytes: [new TextEncoder().encode(text)], size: Buffer.byteLength(text) };
  const read = readForwardedBody(source, "interactionEnvelope");
  return {
    body: read.request,
    context: { ...as, received: { ...source, findings: read.findings } },
  };
}

describe.each(testDatabaseKinds())("gateway interactions ($dialect)", (kind) => {
  const seen: Seen[] = [];
  let server: http.Server;
  let data: TestDatabase;
  let backend: UpstreamBackend;
  let noted: NotedExchanges;
  const send = ({ body, context }: ReturnType<typeof create>) =>
    backend.createInteraction(body, context);
  const stream = ({ body, context }: ReturnType<typeof create>) =>
    backend.streamCreateInteraction(body, context);

  beforeAll(async () => {
    server = fakeUpstream(seen);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    data = await kind.open();
    const settings = testUpstreamSettings(`http://127.0.0.1:${port}`);
    const noting = notingDispatchers();
    noted = noting.noted;
    const client = new UpstreamClient(settings, noting.dispatchers);
    backend = testUpstreamBackend(data.stores, settings, { client });
  });

  afterAll(async () => {
    await backend.client.close();
    await data.cleanup();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("forwards the body as sent, and the interaction it makes is its creator's alone", async () => {
    // Spacing, key order and a field the gateway does not know: all reach the upstream as sent.
    const text = '{ "model":"gemini-2.5-flash",  "input":"Hi", "next_year_field": {"a": 1} }';
    const created = await send(create(text, alice));
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/v1beta/interactions", body: text });
    const query = { stream: false, includeInput: false };
    expect((await backend.getInteraction(created.id, query, alice)).id).toBe(created.id);
    const before = seen.length;
    for (const work of [
      () => backend.getInteraction(created.id, query, bob),
      () => collect(backend.streamInteraction(created.id, { ...query, stream: true }, bob)),
      () => backend.cancelInteraction(created.id, bob),
      () => backend.deleteInteraction(created.id, bob),
    ]) {
      const error = await refusal(work);
      expect(error.httpStatus).toBe(404);
      expect(error.message).toBe(`Interaction '${created.id}' was not found.`);
    }
    const continued = await refusal(() =>
      send(
        create(
          JSON.stringify({ model: "m", input: "x", previous_interaction_id: created.id }),
          bob,
        ),
      ),
    );
    expect(continued.httpStatus).toBe(400);
    expect(continued.message).toContain("previous_interaction_id");
    expect(seen.length).toBe(before);
    expect((await backend.cancelInteraction(created.id, alice)).status).toBe("cancelled");
    await backend.deleteInteraction(created.id, alice);
    expect((await refusal(() => backend.getInteraction(created.id, query, alice))).httpStatus).toBe(
      404,
    );
  });

  it("refuses a body naming anyone else's resource, wherever it stands", async () => {
    await data.stores.ownership.record("file", "files/bobs", "key:bob");
    await data.stores.ownership.record("cachedContent", "cachedContents/bobs", "key:bob");
    const before = seen.length;
    for (const named of [
      { input: [{ type: "document", uri: "files/bobs" }] },
      { input: [{ type: "document", uri: "http://studio.example/v1beta/files/bobs" }] },
      { input: "x", cached_content: "cachedContents/bobs" },
      { input: "x", a_field_of_next_year: ["fileSearchStores/bobs"] },
      {
        input: "x",
        tools: [{ type: "file_search", file_search_store_names: ["fileSearchStores/x"] }],
      },
    ]) {
      const error = await refusal(() =>
        send(create(JSON.stringify({ model: "m", ...named }), alice)),
      );
      expect([403, 404], JSON.stringify(named)).toContain(error.httpStatus);
    }
    expect(seen.length).toBe(before);
    // The gateway does not model this API's fields, so a name even in prose counts (fail closed);
    // prose naming nothing goes through.
    const prose = await refusal(() =>
      send(create(JSON.stringify({ model: "m", input: "What is in files/bobs?" }), alice)),
    );
    expect(prose.httpStatus).toBe(403);
    expect(seen.length).toBe(before);
    await send(create(JSON.stringify({ model: "m", input: "What is in the harbour log?" }), alice));
    expect(seen.length).toBe(before + 1);
  });

  it("passes a stream on event by event and records its interaction from the first event", async () => {
    const events = await collect(stream(create('{"model":"m","input":"Hi","stream":true}', alice)));
    expect(events.map((event) => event.event_type)).toEqual([
      "interaction.created",
      "step.delta",
      "interaction.completed",
    ]);
    const id = (events[0] as { interaction: { id: string } }).interaction.id;
    expect(await data.stores.ownership.owns("interaction", `interactions/${id}`, "key:alice")).toBe(
      true,
    );
    // store: false keeps nothing upstream, so nothing is recorded.
    const unstored = await send(create('{"model":"m","input":"Hi","store":false}', alice));
    expect(
      await data.stores.ownership.ownerOf("interaction", `interactions/${unstored.id}`),
    ).toBeNull();
  });

  it("sends the calls whose answer is a stream as held calls, the others as unary", async () => {
    noted.held.length = 0;
    noted.unary.length = 0;
    const created = await send(create('{"model":"m","input":"Hi"}', alice));
    await collect(stream(create('{"model":"m","input":"Hi","stream":true}', alice)));
    const query = { stream: false, includeInput: false };
    await backend.getInteraction(created.id, query, alice);
    // The stand-in answers a get with JSON, not events: only where the exchange went counts here.
    await collect(backend.streamInteraction(created.id, { ...query, stream: true }, alice)).catch(
      () => undefined,
    );
    expect(noted).toEqual({
      held: ["POST /v1beta/interactions", `GET /v1beta/interactions/${created.id}?stream=true`],
      unary: ["POST /v1beta/interactions", `GET /v1beta/interactions/${created.id}`],
    });
  });

  it("keeps the upstream's words when it refuses", async () => {
    const error = await refusal(() =>
      send(create('{"model":"m","input":"Hi","refuse":true}', alice)),
    );
    expect(error.httpStatus).toBe(400);
    expect(error.message).toBe("Unknown name 'refuse'.");
  });
});
