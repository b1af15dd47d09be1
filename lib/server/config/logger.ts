import "server-only";
import { createSecretsScrubber, type Scrubber } from "./scrubber";
import { serverSecrets } from "./secrets";

/**
 * The one logger of the server. Every line passes through the one scrubber
 * (lib/server/config/scrubber.ts), which removes the configured secrets wherever and in
 * whatever encoding they appear (an error message quoting a URL with `?key=`, an upstream
 * echoing the key in upper case, hex or base64, a stack trace), so no key reaches a log even
 * by accident.
 */

let scrubber: { secrets: string; scrub: Scrubber } | undefined;

function redact(text: string): string {
  const secrets = serverSecrets();
  const joined = secrets.join("\n");
  if (scrubber?.secrets !== joined)
    scrubber = { secrets: joined, scrub: createSecretsScrubber(secrets) };
  return scrubber.scrub.text(text);
}

function render(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ""}`;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function write(level: "info" | "warn" | "error", message: string, detail?: unknown): void {
  const line = redact(detail === undefined ? message : `${message}: ${render(detail)}`);
  const stream = level === "error" ? process.stderr : process.stdout;
  stream.write(`[genstudio] ${level} ${line}\n`);
}

export const logger = {
  info: (message: string, detail?: unknown) => write("info", message, detail),
  warn: (message: string, detail?: unknown) => write("warn", message, detail),
  error: (message: string, detail?: unknown) => write("error", message, detail),
};
