import "server-only";
import fs from "node:fs";
import path from "node:path";
import { load as loadYaml } from "js-yaml";
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { ConfigurationError } from "./env";

/**
 * The emulator's settings, parsed once from the environment: the instance's scenarios
 * (GENSTUDIO_SCENARIOS, a JSON or YAML file read at start), the size of each caller's request
 * log, and where the gateway records its exchanges (GENSTUDIO_RECORD) and the local engine
 * replays them from (GENSTUDIO_REPLAY, with how it matches, paces and misses).
 */

const schema = z.object({
  GENSTUDIO_SCENARIOS: z.string().trim().min(1).optional(),
  GENSTUDIO_REQUEST_LOG_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(500),
  GENSTUDIO_RECORD: z.string().trim().min(1).optional(),
  GENSTUDIO_REPLAY: z.string().trim().min(1).optional(),
  GENSTUDIO_REPLAY_MATCH: z.enum(["exact", "normalised"]).default("normalised"),
  GENSTUDIO_REPLAY_PACE: z.enum(["recorded", "full"]).default("recorded"),
  GENSTUDIO_REPLAY_MISS: z.enum(["engine", "fail"]).default("engine"),
});

export interface EmulatorSettings {
  /** The instance's scenarios, as read from GENSTUDIO_SCENARIOS (checked when registered). */
  instanceScenarios: unknown[];
  requestLogEntries: number;
  recordDir: string | null;
  replay: {
    dir: string;
    match: "exact" | "normalised";
    pace: "recorded" | "full";
    onMiss: "engine" | "fail";
  } | null;
}

export function parseEmulatorEnv(source: Record<string, string | undefined>): EmulatorSettings {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      .join("; ");
    throw new ConfigurationError(`Invalid configuration: ${problems}`);
  }
  const values = parsed.data;
  return {
    instanceScenarios: values.GENSTUDIO_SCENARIOS
      ? readScenarioFile(values.GENSTUDIO_SCENARIOS)
      : [],
    requestLogEntries: values.GENSTUDIO_REQUEST_LOG_ENTRIES,
    recordDir: values.GENSTUDIO_RECORD ? path.resolve(values.GENSTUDIO_RECORD) : null,
    replay: values.GENSTUDIO_REPLAY
      ? {
          dir: path.resolve(values.GENSTUDIO_REPLAY),
          match: values.GENSTUDIO_REPLAY_MATCH,
          pace: values.GENSTUDIO_REPLAY_PACE,
          onMiss: values.GENSTUDIO_REPLAY_MISS,
        }
      : null,
  };
}

/**
 * A scenario file: a list of scenarios, or `{ "scenarios": [...] }`, in JSON or YAML (by the
 * file's extension; JSON is YAML too, so any other name is read as YAML).
 */
export function readScenarioFile(file: string): unknown[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigurationError(
      `GENSTUDIO_SCENARIOS: cannot read ${file} (${(error as Error).message}).`,
    );
  }
  let value: unknown;
  try {
    value = /\.json$/i.test(file) ? JSON.parse(text) : loadYaml(text);
  } catch (error) {
    throw new ConfigurationError(
      `GENSTUDIO_SCENARIOS: ${file} is not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"} (${(error as Error).message.split("\n")[0]}).`,
    );
  }
  const list = Array.isArray(value)
    ? value
    : typeof value === "object" &&
        value !== null &&
        Array.isArray((value as { scenarios?: unknown }).scenarios)
      ? (value as { scenarios: unknown[] }).scenarios
      : null;
  if (list === null)
    throw new ConfigurationError(
      `GENSTUDIO_SCENARIOS: ${file} holds neither a list of scenarios nor { "scenarios": [...] }.`,
    );
  return list;
}

/** A scenario problem found at start, as the configuration error that stops the start. */
export function scenarioFileError(file: string, error: unknown): Error {
  if (error instanceof ApiError)
    return new ConfigurationError(`GENSTUDIO_SCENARIOS: ${file}: ${error.message}`);
  return error as Error;
}

let cached: EmulatorSettings | undefined;

export function emulatorEnv(): EmulatorSettings {
  cached ??= parseEmulatorEnv(process.env);
  return cached;
}
