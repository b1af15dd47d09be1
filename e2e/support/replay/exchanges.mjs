/**
 * The recorded exchanges of the real service, one set per fixture folder (README in each):
 * loaded once, grouped by recording, each group in recorded order. Plain ESM so the spec and
 * `npm run replay` share it.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures");

/** The first set's folder (the SDKs' own test recordings). */
export const FIXTURE_DIR = path.join(FIXTURES, "recorded-exchanges");

/**
 * The sets the replay runs, each with figures of its own: the SDKs' test recordings, and the
 * recordings of agent frameworks and observability libraries (rules fitted on the first are
 * checked on the second, which no rule was read from at first).
 */
export const REPLAY_SETS = [
  { name: "sdk", title: "SDK test recordings", dir: FIXTURE_DIR },
  {
    name: "agents",
    title: "agent frameworks' recordings",
    dir: path.join(FIXTURES, "recorded-exchanges-agents"),
  },
];

/** The one allow-list of both sets, and the per-set budgets of open differences. */
export const ALLOW_LIST_FILE = path.join(FIXTURES, "replay-allow-list.json");
export const OPEN_BUDGET_FILE = path.join(FIXTURES, "replay-open-budget.json");

/**
 * Operation names of the sets that mean the same operation: the agents set names the upload to
 * a file search store after the method (`uploadToFileSearchStore`), the first set after files.
 */
const SAME_OPERATION = new Map([
  ["fileSearchStores.uploadToFileSearchStore.start", "fileSearchStores.upload.start"],
  ["fileSearchStores.uploadToFileSearchStore.chunk", "fileSearchStores.upload.chunk"],
]);

/** Every exchange of an exchanges.jsonl, in file order, operation names made one. */
export function loadExchanges(file = path.join(FIXTURE_DIR, "exchanges.jsonl")) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const exchange = JSON.parse(line);
      exchange.operation = SAME_OPERATION.get(exchange.operation) ?? exchange.operation;
      return exchange;
    });
}

/** Every exchange of one replay set. */
export function loadSet(set) {
  return loadExchanges(path.join(set.dir, "exchanges.jsonl"));
}

/** The exchanges grouped by recording (`group`), each group sorted by its recorded index. */
export function groupExchanges(exchanges) {
  const groups = new Map();
  for (const exchange of exchanges) {
    const list = groups.get(exchange.group) ?? [];
    list.push(exchange);
    groups.set(exchange.group, list);
  }
  return [...groups.entries()].map(([group, list]) => ({
    group,
    exchanges: list.sort((left, right) => left.source.index - right.source.index),
  }));
}

/** True for the operations whose answer carries a prompt token count. */
export function isGeneration(operation) {
  return (
    operation === "generateContent" ||
    operation === "streamGenerateContent" ||
    operation === "countTokens"
  );
}

/**
 * True for a stream answered as server-sent events: a streamed generation asked with `alt=sse`
 * (without it, one JSON array), or an interaction created with `stream: true`.
 */
export function isEventStream(exchange) {
  if (exchange.operation === "interactions.create") return exchange.requestBody?.stream === true;
  return exchange.operation === "streamGenerateContent" && exchange.query?.alt === "sse";
}

/** The model id a recorded request names (`gemini-2.5-flash`), or null. */
export function requestedModel(exchange) {
  const match = /^\/v1beta\/models\/([^/:]+)(?::|$)/.exec(exchange.path);
  if (match) return decodeURIComponent(match[1]);
  const body = exchange.requestBody;
  return typeof body?.model === "string" ? body.model.replace(/^models\//, "") : null;
}
