/**
 * The recorded exchanges of the real service (e2e/fixtures/recorded-exchanges, README there):
 * loaded once, grouped by recording, each group in recorded order. Plain ESM so the spec and
 * `npm run replay` share it.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../fixtures/recorded-exchanges",
);

/** Every exchange of exchanges.jsonl, in file order. */
export function loadExchanges(file = path.join(FIXTURE_DIR, "exchanges.jsonl")) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
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

/** The model id a recorded request names (`gemini-2.5-flash`), or null. */
export function requestedModel(exchange) {
  const match = /^\/v1beta\/models\/([^/:]+)(?::|$)/.exec(exchange.path);
  return match ? decodeURIComponent(match[1]) : null;
}
