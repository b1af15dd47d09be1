/**
 * Tenants stay apart however a reference is spelled. For every place a request can name a
 * file, a cached content or a file search store (found from the request schemas by lib/gemini/references, so a
 * new place is enumerated here without editing this spec), every operation that reads it,
 * every spelling of the field names (camelCase, snake_case, mixed), lists and single
 * objects, and every spelling of a file reference: the owner's request is served, and the
 * same request from another tenant is refused with the service's 403. Both through the
 * gateway (which must not forward what it did not check) and against the local engine.
 */
import { expect, test } from "@playwright/test";
import {
  referencePlaces,
  type ReferencePlace,
  type ReferencingOperation,
} from "@/lib/gemini/references";
import { camelToSnake } from "@/lib/gemini/schemas/wire";
import {
  GATEWAY_KEYS,
  STUDIO_KEYS,
  gatewayServer,
  keyedServer,
  peopleServer,
  type ServerInfo,
} from "./support/servers";
import { personWithKey } from "./support/people";
import { uploadResumable } from "./support/api";

const MODEL = "models/gemini-2.5-flash";
/** Long enough for a cache of it alone (the model's minimum is 1,024 tokens). */
const FILE_TEXT =
  "Rivers carry water from the mountains to the sea, shaping valleys as they go. ".repeat(120);

interface Tenants {
  server: ServerInfo;
  owner: string;
  intruder: string;
  /** Makes the owner's and intruder's keys first (people's keys are made in the studio). */
  prepare?: () => Promise<{ owner: string; intruder: string }>;
}

const SETUPS: [string, Tenants][] = [
  ["gateway", { server: gatewayServer, owner: GATEWAY_KEYS.carol, intruder: GATEWAY_KEYS.mallory }],
  [
    "local engine",
    { server: keyedServer, owner: STUDIO_KEYS.carol, intruder: STUDIO_KEYS.mallory },
  ],
  [
    "people's keys",
    {
      server: peopleServer,
      owner: "",
      intruder: "",
      prepare: async () => ({
        owner: await personWithKey(peopleServer, "carol@people.test"),
        intruder: await personWithKey(peopleServer, "mallory@people.test"),
      }),
    },
  ],
];

interface Answer {
  status: number;
  text: string;
}

/** One call; a 429 (these specs send many) is waited out as its Retry-After says. */
async function call(
  server: ServerInfo,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        "x-goog-api-key": key,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 429 || attempt >= 20) return { status: response.status, text };
    const wait = Number(response.headers.get("retry-after") ?? "1");
    await new Promise((resolve) => setTimeout(resolve, Math.min(10, Math.max(1, wait)) * 1000));
  }
}

async function uploadText(tenants: Tenants): Promise<{ name: string; uri: string }> {
  const file = await uploadResumable(
    tenants.server.baseUrl,
    tenants.owner,
    Buffer.from(FILE_TEXT),
    {
      contentType: "text/plain",
      displayName: "rivers",
    },
  );
  for (let polls = 0; polls < 100; polls++) {
    const got = await call(tenants.server, tenants.owner, "GET", `/v1beta/${file.name}`);
    if ((JSON.parse(got.text) as { state?: string }).state === "ACTIVE") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return file;
}

type KeyCase = "camel" | "snake" | "mixed";
type ListForm = "lists" | "single";

function spell(field: string, depth: number, keyCase: KeyCase): string {
  const snake = keyCase === "snake" || (keyCase === "mixed" && depth % 2 === 1);
  return snake ? camelToSnake(field) : field;
}

/** A body fragment holding `value` at `place`, in the given spelling of names and lists. */
function nest(
  place: ReferencePlace,
  value: unknown,
  keyCase: KeyCase,
  listForm: ListForm,
): Record<string, unknown> {
  let inner: unknown = value;
  for (let index = place.segments.length - 1; index >= 0; index--) {
    const segment = place.segments[index]!;
    const holder: Record<string, unknown> = {
      [spell(segment.field, index, keyCase)]:
        segment.list && listForm === "lists" ? [inner] : inner,
    };
    if (segment.field === "fileUri") holder[spell("mimeType", index, keyCase)] = "text/plain";
    // A function response needs its name and response beside the media it returns.
    if (segment.field === "parts" && place.segments[index - 1]?.field === "functionResponse") {
      holder[spell("name", index, keyCase)] = "lookup";
      holder[spell("response", index, keyCase)] = {};
    }
    inner = holder;
  }
  return inner as Record<string, unknown>;
}

/** Adds what a request needs besides the reference (a user turn, the model, a ttl), without touching it. */
function withContext(
  operation: ReferencingOperation,
  place: ReferencePlace,
  fragment: Record<string, unknown>,
): Record<string, unknown> {
  const turn = [{ role: "user", parts: [{ text: "Say something about rivers." }] }];
  const fields = place.segments.map((segment) => segment.field);
  const generateShape = (under: string[], body: Record<string, unknown>) => {
    const needsTurn = under[0] !== "contents";
    return needsTurn ? { ...body, contents: turn } : body;
  };
  if (operation === "generateContent")
    return { ...generateShape(fields, fragment), generationConfig: { maxOutputTokens: 8 } };
  if (operation === "countTokens") {
    if (fields[0] !== "generateContentRequest") return fragment;
    const [key, inner] = Object.entries(fragment)[0]!;
    return {
      [key]: { ...generateShape(fields.slice(1), inner as Record<string, unknown>), model: MODEL },
    };
  }
  if (operation === "batchGenerateContent") {
    // The inline request the reference sits in needs its own user turn too; the input file
    // place (batch.inputConfig.fileName) needs nothing more.
    const at = fields.indexOf("request");
    if (at < 0) return fragment;
    let holder = fragment;
    for (let index = 0; index < at; index++) {
      const value = holder[Object.keys(holder)[0]!];
      holder = (Array.isArray(value) ? value[0] : value) as Record<string, unknown>;
    }
    const key = Object.keys(holder)[0]!;
    holder[key] = generateShape(fields.slice(at + 1), holder[key] as Record<string, unknown>);
    return fragment;
  }
  // A cache of tools alone is below the model's minimum: it gets the long text as its contents.
  const contents =
    fields[0] === "contents" ? {} : { contents: [{ role: "user", parts: [{ text: FILE_TEXT }] }] };
  return { ...contents, ...fragment, model: MODEL, ttl: "120s" };
}

interface Case {
  operation: ReferencingOperation;
  method: string;
  path: string;
  title: string;
  body: Record<string, unknown>;
}

const ROUTES: Record<ReferencingOperation, { path: string; stream?: string }> = {
  generateContent: {
    path: `/v1beta/${MODEL}:generateContent`,
    stream: `/v1beta/${MODEL}:streamGenerateContent?alt=sse`,
  },
  countTokens: { path: `/v1beta/${MODEL}:countTokens` },
  createCachedContent: { path: "/v1beta/cachedContents" },
  batchGenerateContent: { path: `/v1beta/${MODEL}:batchGenerateContent` },
};

function fileSpellings(file: { name: string; uri: string }): Record<string, string> {
  const id = file.name.slice("files/".length);
  const uri = new URL(file.uri);
  return {
    name: file.name,
    "bare id": id,
    "uri as answered": file.uri,
    "the service's uri": `https://generativelanguage.googleapis.com/v1beta/files/${id}`,
    "uri with a query": `${file.uri}?alt=media`,
    "percent-encoded slash": `${uri.origin}/v1beta/files%2F${id}`,
    "dot segments": `${uri.origin}/v1beta/x/../files/${id}`,
    "upper-case FILES": `FILES/${id}`,
    "padded with spaces": `  ${file.name}  `,
  };
}

function casesFor(resources: {
  file: { name: string; uri: string };
  cache: string;
  store: string;
}): Case[] {
  const cases: Case[] = [];
  const operations: ReferencingOperation[] = [
    "generateContent",
    "countTokens",
    "createCachedContent",
    "batchGenerateContent",
  ];
  for (const operation of operations) {
    for (const place of referencePlaces(operation)) {
      const where = place.segments.map((segment) => segment.field).join(".");
      const values: [string, string][] =
        place.kind === "file"
          ? Object.entries(fileSpellings(resources.file))
          : [["name", place.kind === "cachedContent" ? resources.cache : resources.store]];
      const forms: [KeyCase, ListForm, string, string][] = [];
      for (const keyCase of ["camel", "snake", "mixed"] as const)
        for (const listForm of ["lists", "single"] as const)
          forms.push([keyCase, listForm, values[0]![0], values[0]![1]]);
      for (const [label, value] of values.slice(1)) forms.push(["camel", "lists", label, value]);
      const routes = ROUTES[operation];
      for (const [keyCase, listForm, label, value] of forms) {
        const body = withContext(operation, place, nest(place, value, keyCase, listForm));
        const title = `${operation} ${where}, ${keyCase} names, ${listForm}, ${label}`;
        cases.push({ operation, method: "POST", path: routes.path, title, body });
        if (routes.stream)
          cases.push({
            operation,
            method: "POST",
            path: routes.stream,
            title: `stream ${title}`,
            body,
          });
      }
    }
  }
  return cases;
}

for (const [label, tenants] of SETUPS) {
  test(`${label}: every place and spelling of another tenant's file, cache or store is refused with 403`, async () => {
    test.setTimeout(300_000);
    if (tenants.prepare) Object.assign(tenants, await tenants.prepare());
    const file = await uploadText(tenants);
    const created = await call(tenants.server, tenants.owner, "POST", "/v1beta/cachedContents", {
      model: MODEL,
      contents: [{ role: "user", parts: [{ text: FILE_TEXT }] }],
      ttl: "600s",
    });
    expect(created.status, created.text).toBe(200);
    const cache = (JSON.parse(created.text) as { name: string }).name;
    const storeCreated = await call(
      tenants.server,
      tenants.owner,
      "POST",
      "/v1beta/fileSearchStores",
      {
        displayName: "tenant references",
      },
    );
    expect(storeCreated.status, storeCreated.text).toBe(200);
    const store = (JSON.parse(storeCreated.text) as { name: string }).name;

    const cases = casesFor({ file, cache, store });
    expect(cases.length).toBeGreaterThan(100);
    const refusedToOwner: string[] = [];
    const leaks: string[] = [];
    for (const item of cases) {
      const own = await call(tenants.server, tenants.owner, item.method, item.path, item.body);
      const other = await call(tenants.server, tenants.intruder, item.method, item.path, item.body);
      if (
        own.status === 200 &&
        (item.operation === "createCachedContent" || item.operation === "batchGenerateContent")
      ) {
        const name = (JSON.parse(own.text) as { name: string }).name;
        await call(tenants.server, tenants.owner, "DELETE", `/v1beta/${name}`);
      }
      if (own.status !== 200) {
        // A place this mode refuses to everyone (a file in a text-only system instruction):
        // the other tenant must learn nothing more than the owner does.
        refusedToOwner.push(`${item.title}: ${own.status}`);
        if (other.status !== 403 && other.text !== own.text)
          leaks.push(`${item.title}: owner ${own.status}, other ${other.status} ${other.text}`);
        continue;
      }
      if (other.status !== 403)
        leaks.push(`${item.title}: ${other.status} ${other.text.slice(0, 300)}`);
      else expect(other.text, item.title).toMatch(/PERMISSION_DENIED/);
    }
    expect(leaks).toEqual([]);
    // Only places that this mode's rules refuse to everyone are allowed to fail for the owner.
    expect(
      refusedToOwner.filter((entry) => !entry.includes("systemInstruction.")),
      "the owner's own requests",
    ).toEqual([]);
  });
}

/** The opening words of FILE_TEXT: whoever reads the file or a cache of it sees them. */
const FILE_WORDS = "Rivers carry water";

for (const [label, tenants] of SETUPS) {
  test(`${label}: tools that fetch URLs and caches built from files never read another tenant's file or cache`, async () => {
    test.setTimeout(300_000);
    const file = await uploadText(tenants);
    const origin = new URL(file.uri).origin;
    const id = file.name.slice("files/".length);
    // A cache built from the file: the owner's, and what it holds is the file's text.
    const created = await call(tenants.server, tenants.owner, "POST", "/v1beta/cachedContents", {
      model: MODEL,
      contents: [
        { role: "user", parts: [{ fileData: { fileUri: file.uri, mimeType: "text/plain" } }] },
      ],
      ttl: "600s",
    });
    expect(created.status, created.text).toBe(200);
    const cache = (JSON.parse(created.text) as { name: string }).name;
    const urls = [
      file.uri,
      `https://generativelanguage.googleapis.com/v1beta/${file.name}`,
      `${origin}/download/v1beta/${file.name}:download?alt=media`,
      `${origin}/v1beta/files%2F${id}`,
      `${origin.toUpperCase()}/V1BETA/FILES/${id}`,
      `${origin}/v1beta/x/../files/${id}`,
      `${origin}/v1beta/${cache}`,
      `${origin}/v1beta/cachedContents%2F${cache.slice("cachedContents/".length)}`,
    ];
    const leaks: string[] = [];
    const ownerMisses: string[] = [];
    for (const url of urls)
      for (const tool of [{ urlContext: {} }, { url_context: {} }])
        for (const path of [
          `/v1beta/${MODEL}:generateContent`,
          `/v1beta/${MODEL}:streamGenerateContent?alt=sse`,
        ]) {
          const body = {
            contents: [{ role: "user", parts: [{ text: `What does ${url} say?` }] }],
            tools: [tool],
            generationConfig: { maxOutputTokens: 64 },
          };
          const what = `${Object.keys(tool)[0]} ${path.split(":")[1]} ${url}`;
          const own = await call(tenants.server, tenants.owner, "POST", path, body);
          if (own.status !== 200)
            ownerMisses.push(`${what}: ${own.status} ${own.text.slice(0, 200)}`);
          const other = await call(tenants.server, tenants.intruder, "POST", path, body);
          if (other.text.includes(FILE_WORDS)) leaks.push(`${what}: ${other.status}`);
          // The gateway refuses before anything goes upstream; the engine reads nothing for them.
          if (label === "gateway" && other.status !== 403)
            leaks.push(`${what}: ${other.status} ${other.text.slice(0, 200)}`);
        }
    // Nor can another tenant build a cache that fetches them later, or one from the file.
    for (const contents of [
      [{ role: "user", parts: [{ text: `Read ${file.uri} and ${origin}/v1beta/${cache}` }] }],
      [{ role: "user", parts: [{ fileData: { fileUri: file.uri, mimeType: "text/plain" } }] }],
    ]) {
      const built = await call(tenants.server, tenants.intruder, "POST", "/v1beta/cachedContents", {
        model: MODEL,
        contents: [...contents, { role: "user", parts: [{ text: FILE_TEXT }] }],
        tools: [{ urlContext: {} }],
        ttl: "120s",
      });
      if (built.status === 200) {
        const name = (JSON.parse(built.text) as { name: string }).name;
        await call(tenants.server, tenants.intruder, "DELETE", `/v1beta/${name}`);
        if (label === "gateway" || "fileData" in contents[0]!.parts[0]!)
          leaks.push(`a cache of the intruder's naming ${JSON.stringify(contents)}: 200`);
      }
    }
    expect(leaks).toEqual([]);
    expect(ownerMisses).toEqual([]);
  });
}

/** Uploads JSONL `lines` as `key`'s batch input file. */
async function uploadLines(tenants: Tenants, key: string, lines: unknown[]): Promise<string> {
  const bytes = Buffer.from(lines.map((line) => JSON.stringify(line)).join("\n"));
  return (
    await uploadResumable(tenants.server.baseUrl, key, bytes, { contentType: "application/jsonl" })
  ).name;
}

for (const [label, tenants] of SETUPS) {
  test(`${label}: a batch input file naming another tenant's file, cache or store never reads them`, async () => {
    test.setTimeout(300_000);
    const file = await uploadText(tenants);
    const cache = JSON.parse(
      (
        await call(tenants.server, tenants.owner, "POST", "/v1beta/cachedContents", {
          model: MODEL,
          contents: [{ role: "user", parts: [{ text: FILE_TEXT }] }],
          ttl: "600s",
        })
      ).text,
    ) as { name: string };
    const ask = (text: string) => [{ role: "user", parts: [{ text }] }];
    const lines = [
      {
        key: "file",
        request: {
          contents: [
            {
              parts: [
                { fileData: { fileUri: file.uri, mimeType: "text/plain" } },
                { text: "Repeat it." },
              ],
            },
          ],
        },
      },
      { key: "cache", request: { contents: ask("Go on."), cachedContent: cache.name } },
      {
        key: "url",
        request: { contents: ask(`What does ${file.uri} say?`), tools: [{ urlContext: {} }] },
      },
    ];
    for (const line of lines) {
      const input = await uploadLines(tenants, tenants.intruder, [line]);
      const created = await call(
        tenants.server,
        tenants.intruder,
        "POST",
        `/v1beta/${MODEL}:batchGenerateContent`,
        { batch: { inputConfig: { fileName: input } } },
      );
      if (label === "gateway") {
        expect(created.status, `${line.key}: ${created.text}`).toBe(403);
        continue;
      }
      // The engine runs each line as its caller: it fails, and reads nothing of the owner's.
      expect(created.status, created.text).toBe(200);
      const name = (JSON.parse(created.text) as { name: string }).name;
      let batch: {
        metadata?: { state?: string; output?: { responsesFile?: string } };
        response?: { responsesFile?: string };
      } = {};
      for (let polls = 0; polls < 300; polls++) {
        batch = JSON.parse(
          (await call(tenants.server, tenants.intruder, "GET", `/v1beta/${name}`)).text,
        );
        if (/SUCCEEDED|FAILED/.test(batch.metadata?.state ?? "")) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const results = batch.response?.responsesFile ?? batch.metadata?.output?.responsesFile;
      expect(results, JSON.stringify(batch)).toBeDefined();
      const bytes = await call(
        tenants.server,
        tenants.intruder,
        "GET",
        `/download/v1beta/${results}:download?alt=media`,
      );
      expect(bytes.status).toBe(200);
      expect(bytes.text, line.key).not.toContain(FILE_WORDS);
    }
  });
}

for (const [label, tenants] of SETUPS) {
  test(`${label}: an interaction's previous id, however spelled, never continues another tenant's`, async () => {
    test.setTimeout(180_000);
    if (tenants.prepare && !tenants.owner) Object.assign(tenants, await tenants.prepare());
    const secret = "periwinkle-lantern-4471";
    const quick = { max_output_tokens: 16 };
    const created = await call(tenants.server, tenants.owner, "POST", "/v1beta/interactions", {
      model: "gemini-2.5-flash",
      input: `The password is ${secret}. Keep it.`,
      generation_config: quick,
    });
    expect(created.status, created.text).toBe(200);
    const id = (JSON.parse(created.text) as { id: string }).id;
    const origin = new URL(tenants.server.baseUrl).origin;
    const spellings = [
      id,
      `interactions/${id}`,
      `INTERACTIONS/${id}`,
      `${origin}/v1beta/interactions/${id}`,
      `interactions%2F${id}`,
    ];
    const leaks: string[] = [];
    for (const previous of spellings)
      for (const mode of [{}, { stream: true }, { background: true, store: true }]) {
        const body = {
          model: "gemini-2.5-flash",
          input: "What is the password?",
          previous_interaction_id: previous,
          generation_config: quick,
          ...mode,
        };
        const other = await call(
          tenants.server,
          tenants.intruder,
          "POST",
          "/v1beta/interactions",
          body,
        );
        const what = `${previous} ${JSON.stringify(mode)}: ${other.status} ${other.text.slice(0, 200)}`;
        // Refused before anything runs: never a stream, a background run, nor the owner's words.
        if (other.status < 400 || other.text.includes(secret)) leaks.push(what);
      }
    expect(leaks).toEqual([]);
    // The owner's own continuation goes on from it.
    const continued = await call(tenants.server, tenants.owner, "POST", "/v1beta/interactions", {
      model: "gemini-2.5-flash",
      input: "What is the password?",
      previous_interaction_id: id,
      generation_config: quick,
    });
    expect(continued.status, continued.text).toBe(200);
  });
}
