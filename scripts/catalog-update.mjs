#!/usr/bin/env node
// Rebuilds the local engine's catalog (lib/engine/catalog/models.json) and prints what changed:
// `npm run catalog:update`. With an upstream key (GEMINI_API_KEY or GOOGLE_API_KEY, base URL
// GEMINI_BASE_URL) the source is the live `models.list`, and each `-latest` alias is resolved
// by one generateContent of one output token (its answer's modelVersion). Without a key, or
// with `--recordings`, the source is the newest models.list of the recorded exchanges (both
// replay sets), and the models recordings use successfully that it no longer names are kept
// (listed false), each with the model its newest recorded answer names. Generation and
// embedding models are served. Families, family rules, per-model trait overrides and `retired`
// models (the service's 404 is their newest recording; they are refused, not served) in the file
// are kept; a new model gets the family of the first rule its id matches.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const { values } = parseArgs({
  options: {
    recordings: { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
  },
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FILE = path.join(ROOT, "lib/engine/catalog/models.json");
const RECORDINGS = [
  path.join(ROOT, "e2e/fixtures/recorded-exchanges/exchanges.jsonl"),
  path.join(ROOT, "e2e/fixtures/recorded-exchanges-agents/exchanges.jsonl"),
];
const GENERATION_METHOD = "generateContent";
/** The methods of a served model: generation, or embeddings. */
const SERVED_METHODS = [GENERATION_METHOD, "embedContent"];

function served(resource) {
  return SERVED_METHODS.some((method) => resource.supportedGenerationMethods?.includes(method));
}

const catalog = JSON.parse(fs.readFileSync(FILE, "utf8"));
const key = process.env.GEMINI_API_KEY || process.env.GOOGLE_API_KEY;
const live = Boolean(key) && !values.recordings;

function idOf(name) {
  return name.replace(/^models\//, "");
}

function familyOf(id) {
  for (const [pattern, family] of catalog.familyRules)
    if (new RegExp(pattern).test(id)) return family;
  throw new Error(`no family rule matches ${id}`);
}

/** The highest Gemini version a list names: the newest list names the newest models. */
function newestVersion(models) {
  let best = 0;
  for (const model of models) {
    const match = /gemini-(\d+(?:\.\d+)?)/.exec(model.name);
    if (match) best = Math.max(best, Number(match[1]));
  }
  return best;
}

async function liveSource() {
  const base = (process.env.GEMINI_BASE_URL || "https://generativelanguage.googleapis.com").replace(
    /\/$/,
    "",
  );
  const headers = { "x-goog-api-key": key, "content-type": "application/json" };
  const models = [];
  let pageToken;
  do {
    const url = new URL(`${base}/v1beta/models`);
    url.searchParams.set("pageSize", "1000");
    if (pageToken) url.searchParams.set("pageToken", pageToken);
    const response = await fetch(url, { headers });
    if (!response.ok)
      throw new Error(`models.list answered ${response.status}: ${await response.text()}`);
    const page = await response.json();
    models.push(...(page.models ?? []));
    pageToken = page.nextPageToken;
  } while (pageToken);
  const versions = new Map();
  for (const model of models) {
    const id = idOf(model.name);
    if (!id.endsWith("-latest") || !model.supportedGenerationMethods?.includes(GENERATION_METHOD))
      continue;
    const response = await fetch(`${base}/v1beta/models/${id}:generateContent`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: "Hi" }] }],
        generationConfig: { maxOutputTokens: 1 },
      }),
    });
    const answer = await response.json().catch(() => ({}));
    if (typeof answer.modelVersion === "string") versions.set(id, answer.modelVersion);
    else console.warn(`could not resolve ${id}: ${response.status}`);
  }
  return { listed: models, older: [], versions, used: new Set() };
}

/** When the service made an answer: its responseId's unix seconds (0 when it has none). */
function answerTime(body) {
  const id = /"responseId":\s*"([A-Za-z0-9_-]+)"/.exec(body)?.[1];
  if (!id) return 0;
  const bytes = Buffer.from(id, "base64url");
  return bytes.length >= 4 ? bytes.readUInt32LE(0) : 0;
}

function recordedSource() {
  const exchanges = RECORDINGS.flatMap((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line)),
  );
  const lists = exchanges
    .filter((exchange) => exchange.operation === "models.list" && exchange.status === 200)
    .map((exchange) => JSON.parse(exchange.responseBody).models ?? [])
    .sort((left, right) => newestVersion(left) - newestVersion(right));
  const listed = lists.at(-1) ?? [];
  // The modelVersion each requested model answers with: its newest dated answer's, else the
  // majority of its recorded answers (an alias moves to newer models over time).
  const newest = new Map();
  const answered = new Map();
  const used = new Set();
  for (const exchange of exchanges) {
    if (exchange.status >= 300) continue;
    const match =
      /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent|embedContent|batchEmbedContents)$/.exec(
        exchange.path,
      );
    if (!match) continue;
    const id = decodeURIComponent(match[1]);
    used.add(id);
    // Embedding answers name no modelVersion.
    if (match[2] === "embedContent" || match[2] === "batchEmbedContents") continue;
    const body = exchange.responseBody;
    const found = /"modelVersion":\s*"([^"]+)"/.exec(body);
    if (!found) continue;
    const tally = answered.get(id) ?? new Map();
    tally.set(found[1], (tally.get(found[1]) ?? 0) + 1);
    answered.set(id, tally);
    const time = answerTime(body);
    if (time > (newest.get(id)?.time ?? 0)) newest.set(id, { time, version: found[1] });
  }
  const versions = new Map();
  for (const [id, tally] of answered) {
    const [best] = [...tally.entries()].sort((left, right) => right[1] - left[1])[0];
    versions.set(id, newest.get(id)?.version ?? best);
  }
  return { listed, older: lists.slice(0, -1).reverse(), versions, used };
}

function describeResource(model) {
  if (/embedding/.test(model.name))
    return {
      name: model.name,
      version: idOf(model.name),
      displayName: idOf(model.name),
      description: `${idOf(model.name)} (no recorded models.list names it; served for recordings that use it)`,
      inputTokenLimit: 2048,
      outputTokenLimit: 1,
      supportedGenerationMethods: ["embedContent"],
    };
  return {
    name: model.name,
    version: idOf(model.name),
    displayName: idOf(model.name),
    description: `${idOf(model.name)} (no recorded models.list names it; served for recordings that use it)`,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ["generateContent", "countTokens"],
    temperature: 1,
    topP: 0.95,
    topK: 64,
    maxTemperature: 2,
  };
}

function sameJson(left, right) {
  return JSON.stringify(left) === JSON.stringify(right);
}

const source = live ? await liveSource() : recordedSource();
const changes = [];
const before = new Map(catalog.models.map((entry) => [entry.name, entry]));
const after = new Map();

for (const resource of source.listed) {
  if (!served(resource)) continue;
  const previous = before.get(resource.name);
  const entry = previous
    ? { ...previous }
    : { name: resource.name, family: familyOf(idOf(resource.name)) };
  if (!previous) changes.push(`added ${resource.name} (family ${entry.family})`);
  else {
    if (!previous.listed) changes.push(`listed again: ${resource.name}`);
    for (const field of new Set([
      ...Object.keys(previous.resource ?? {}),
      ...Object.keys(resource),
    ]))
      if (!sameJson(previous.resource?.[field], resource[field]))
        changes.push(
          `${resource.name}: ${field} ${JSON.stringify(previous.resource?.[field])} -> ${JSON.stringify(resource[field])}`,
        );
  }
  entry.listed = true;
  entry.resource = resource;
  after.set(resource.name, entry);
}

for (const id of source.used) {
  const name = `models/${id}`;
  if (after.has(name) || before.has(name)) continue;
  const older = source.older.map((list) => list.find((model) => model.name === name)).find(Boolean);
  const resource = older ?? describeResource({ name });
  if (!served(resource)) continue;
  after.set(name, { name, family: familyOf(id), listed: false, resource });
  changes.push(`added ${name} (no longer listed; used by recordings)`);
}

for (const [name, entry] of before) {
  if (after.has(name)) continue;
  if (entry.listed) changes.push(`no longer listed: ${name} (still served)`);
  after.set(name, { ...entry, listed: false });
}

for (const [id, version] of source.versions) {
  const entry = after.get(`models/${id}`);
  if (!entry || entry.retired) continue;
  const target = after.get(`models/${idOf(version)}`);
  // A target since retired: the entry keeps the successor its file names.
  if (target?.retired) continue;
  const aliasOf = target && target.name !== entry.name ? target.name : undefined;
  const modelVersion = version === id ? undefined : version;
  if (entry.modelVersion !== modelVersion || entry.aliasOf !== aliasOf)
    changes.push(
      `${entry.name}: answers as ${JSON.stringify(version)}${aliasOf ? ` (alias of ${aliasOf})` : ""}`,
    );
  if (modelVersion) entry.modelVersion = modelVersion;
  else delete entry.modelVersion;
  if (aliasOf) entry.aliasOf = aliasOf;
  else delete entry.aliasOf;
}

// Listed models in the list's order, then the ones no longer listed by name.
const ordered = [
  ...source.listed.map((model) => after.get(model.name)).filter(Boolean),
  ...[...after.values()]
    .filter((entry) => !entry.listed)
    .sort((left, right) => left.name.localeCompare(right.name)),
];
const keyOrder = [
  "name",
  "listed",
  "retired",
  "family",
  "aliasOf",
  "modelVersion",
  "traits",
  "resource",
];
catalog.models = ordered.map((entry) =>
  Object.fromEntries(
    keyOrder.filter((field) => entry[field] !== undefined).map((field) => [field, entry[field]]),
  ),
);

console.log(
  `catalog source: ${live ? "live models.list" : "recorded models.list"}; ${catalog.models.filter((entry) => entry.listed).length} listed, ${catalog.models.filter((entry) => !entry.listed).length} no longer listed`,
);
for (const change of changes) console.log(`  ${change}`);
if (changes.length === 0) console.log("  no change");
if (!values["dry-run"]) fs.writeFileSync(FILE, `${JSON.stringify(catalog, null, 2)}\n`);
