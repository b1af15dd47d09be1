import "server-only";
import { serverEnv } from "../config/env";
import { serverSecrets } from "../config/secrets";
import { createScrubber, type Scrubber } from "../config/scrubber";

/**
 * What is scrubbed from a log line before it is stored: every configured secret (the upstream
 * key, the access code, STUDIO_API_KEYS) and the key the request itself carried, in every
 * spelling the one scrubber (lib/server/config/scrubber.ts) knows, and any `?key=` value;
 * the upstream's origin is taken out as it is from answers. A line whose answer text a
 * redaction changed keeps its timing true to the text (the difference goes to the last pieces).
 */

const MAX_CACHED = 1000;
const scrubbers = new Map<string, Scrubber>();

function scrubberFor(secret: string): Scrubber {
  let found = scrubbers.get(secret);
  if (found) return found;
  found = createScrubber(secret, serverEnv().upstream?.baseUrl ?? "http://upstream.invalid");
  if (scrubbers.size >= MAX_CACHED) scrubbers.delete(scrubbers.keys().next().value!);
  scrubbers.set(secret, found);
  return found;
}

export function logScrubber(requestSecrets: readonly string[]): (line: string) => string {
  const secrets = [...new Set([...serverSecrets(), ...requestSecrets])].filter(
    (secret) => secret.length >= 8,
  );
  return (line) => {
    let scrubbed = line;
    for (const secret of secrets) scrubbed = scrubberFor(secret).text(scrubbed);
    return scrubbed === line ? line : withTrueTiming(scrubbed);
  };
}

function withTrueTiming(line: string): string {
  const exchange = JSON.parse(line) as {
    responseBody: string;
    responseTiming?: { chunks: Array<[number, number]> };
  };
  const chunks = exchange.responseTiming?.chunks;
  if (!chunks || chunks.length === 0) return line;
  const counted = chunks.reduce((sum, [, bytes]) => sum + bytes, 0);
  let difference = Buffer.byteLength(exchange.responseBody) - counted;
  if (difference === 0) return line;
  for (let index = chunks.length - 1; index >= 0 && difference !== 0; index--) {
    const chunk = chunks[index]!;
    const changed = Math.max(0, chunk[1] + difference);
    difference -= changed - chunk[1];
    chunk[1] = changed;
  }
  return JSON.stringify(exchange);
}
