/**
 * Turns the zod issues of a request schema into the service's errors: JSON payload errors
 * (`Invalid JSON payload received. Unknown name "x" at 'generation_config': Cannot find
 * field.`) with snake_case paths, and missing required fields as field violations.
 */
import type { z } from "zod";
import type { FieldViolation } from "../api-error";
import { camelToSnake, type WireIssue } from "./wire";

/**
 * The service's spelling of a field path: snake_case names, `[index]` for list items and
 * `[key]` for map keys (the user's own property names inside Schema.properties, which are
 * never renamed).
 */
export function wirePath(path: readonly PropertyKey[]): string {
  let text = "";
  let mapKeyNext = false;
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (mapKeyNext) {
      text += `[${String(segment)}]`;
      mapKeyNext = false;
    } else {
      const name = String(segment);
      text += (text ? "." : "") + camelToSnake(name);
      mapKeyNext = name === "properties";
    }
  }
  return text;
}

export interface WireProblems {
  /** JSON payload errors: each violation's description is its whole message line. */
  payload: FieldViolation[];
  /** Required fields that are missing, as rule-style violations. */
  required: FieldViolation[];
}

const PAYLOAD = "Invalid JSON payload received.";

function at(path: string): string {
  return path ? ` at '${path}'` : "";
}

/** Splits `path` into the containing path and the last field name (skipping trailing indices). */
function splitLast(path: readonly PropertyKey[]): {
  parent: PropertyKey[];
  field: string | undefined;
} {
  let end = path.length;
  while (end > 0 && typeof path[end - 1] === "number") end--;
  if (end === 0) return { parent: [], field: undefined };
  return { parent: path.slice(0, end - 1), field: String(path[end - 1]) };
}

/** Sorts each issue of `error` into payload errors or missing fields. `root` prefixes every path. */
export function wireProblems(error: z.ZodError, root: readonly PropertyKey[] = []): WireProblems {
  const problems: WireProblems = { payload: [], required: [] };
  const payload = (field: string, description: string) =>
    problems.payload.push({ field, description });
  for (const issue of error.issues) {
    const relative = issue.path;
    const full = [...root, ...relative];
    const path = wirePath(full);
    const params = (issue as { params?: WireIssue }).params;
    if (!params || typeof params !== "object" || !("wire" in params)) {
      payload(path, `${PAYLOAD} Invalid value${at(path)}: ${issue.message}`);
      continue;
    }
    switch (params.wire) {
      case "unknown-field": {
        const parentPath = wirePath(full.slice(0, -1));
        payload(
          parentPath,
          `${PAYLOAD} Unknown name "${String(full[full.length - 1])}"${at(parentPath)}: Cannot find field.`,
        );
        break;
      }
      case "duplicate-field":
        payload(
          path,
          `${PAYLOAD} Field "${camelToSnake(params.name)}"${at(path)} is set twice, as "${params.spellings[0]}" and as "${params.spellings[1]}".`,
        );
        break;
      case "oneof-already-set":
        payload(
          path,
          `${PAYLOAD} Invalid value${at(path)} (oneof), oneof field '${params.oneof}' is already set. Cannot set '${params.name}'`,
        );
        break;
      case "invalid-value":
        if (relative.length === 0)
          payload(path, `${PAYLOAD} Unknown name "": Root element must be a message.`);
        else
          payload(path, `${PAYLOAD} Invalid value${at(path)} (${params.type}), ${params.rendered}`);
        break;
      case "not-repeating": {
        if (relative.length === 0) {
          payload(path, `${PAYLOAD} Unknown name "": Root element must be a message.`);
          break;
        }
        const { parent, field } = splitLast(full);
        const parentPath = wirePath(parent);
        payload(
          parentPath,
          `${PAYLOAD} Unknown name "${camelToSnake(field ?? "")}"${at(parentPath)}: Proto field is not repeating, cannot start list.`,
        );
        break;
      }
      case "required": {
        const names = full
          .filter((segment): segment is string => typeof segment === "string")
          .map(camelToSnake);
        const described = names.slice(-2).join(".");
        problems.required.push({ field: path, description: `${described} is required.` });
        break;
      }
    }
  }
  return problems;
}
