import "server-only";
import { serverSecrets } from "./secrets";

/**
 * The one logger of the server. Every line passes through `redact`, which removes the
 * configured secrets wherever they appear (an error message quoting a URL with `?key=`,
 * a stack trace), so no key reaches a log even by accident.
 */

function redact(text: string): string {
  let result = text;
  for (const secret of serverSecrets()) {
    if (secret.length >= 8) result = result.split(secret).join("[redacted]");
  }
  return result.replace(/([?&]key=)[^&\s"']+/gi, "$1[redacted]");
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
