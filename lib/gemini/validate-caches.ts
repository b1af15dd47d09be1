/**
 * Reading a cachedContents create or update body: the cache's contents and context checked
 * with the generate rules' content checks, its display name, and its expiry (ttl at most 3650
 * days, or an expire_time); an update may change only the expiry.
 */
import { MAX_CACHE_TTL_SECONDS, MAX_DISPLAY_NAME_CHARACTERS } from "./schemas/constants";
import { cachedContentCreateSchema, cachedContentUpdateSchema } from "./schemas/requests";
import { checkContents } from "./schemas/rules/content-rules";
import { Violations, codePointLength, violationError } from "./schemas/rules/violations";
import { camelToSnake } from "./schemas/wire";
import type { CachedContentCreate, CachedContentUpdate } from "./types";
import { checkContext, checkModelName, runSchema } from "./validate";
import { durationProblem, timestampProblem } from "./wire-time";

function checkTtl(ttl: string, path: string, violations: Violations): void {
  const problem = durationProblem(ttl);
  if (problem) violations.add(path, `${problem}; got ${JSON.stringify(ttl)}.`);
  else if (ttl.startsWith("-"))
    violations.add(path, `ttl must not be negative; got ${JSON.stringify(ttl)}.`);
  else if (Number(ttl.slice(0, -1)) > MAX_CACHE_TTL_SECONDS) {
    violations.add(
      path,
      `ttl must be at most ${MAX_CACHE_TTL_SECONDS}s (3650 days); got ${JSON.stringify(ttl)}.`,
    );
  }
}

function checkExpireTime(expireTime: string, path: string, violations: Violations): void {
  const problem = timestampProblem(expireTime);
  if (problem) violations.add(path, `${problem}; got ${JSON.stringify(expireTime)}.`);
}

/**
 * Parses and validates a cachedContents create body (the CachedContent resource). Checks
 * that depend on the model (minimum size, context window) are left to the engine.
 * Throws ApiError 400.
 */
export function parseCachedContentCreate(body: unknown): CachedContentCreate {
  const requestName = "CreateCachedContentRequest";
  const cache = runSchema(cachedContentCreateSchema, body ?? {}, {
    requestName,
    root: ["cachedContent"],
  });
  const violations = new Violations();
  if (cache.model === "")
    violations.add("cached_content.model", "cached_content.model is required.");
  else checkModelName(cache.model, "cached_content.model", violations);
  if (
    cache.displayName !== undefined &&
    codePointLength(cache.displayName) > MAX_DISPLAY_NAME_CHARACTERS
  ) {
    violations.add(
      "cached_content.display_name",
      `display_name must be at most ${MAX_DISPLAY_NAME_CHARACTERS} characters; got ${codePointLength(cache.displayName)}.`,
    );
  }
  if (cache.ttl !== undefined && cache.expireTime !== undefined) {
    violations.add(
      "cached_content.ttl",
      "ttl and expire_time are mutually exclusive; set only one of them.",
    );
  }
  if (cache.ttl !== undefined) checkTtl(cache.ttl, "cached_content.ttl", violations);
  if (cache.expireTime !== undefined)
    checkExpireTime(cache.expireTime, "cached_content.expire_time", violations);
  if (cache.contents) checkContents(cache.contents, "cached_content.contents", violations, false);
  checkContext(cache, "cached_content", violations);
  if (!violations.empty) throw violationError(requestName, violations.list);
  return cache;
}

const UPDATABLE_FIELDS: Record<string, "ttl" | "expireTime"> = {
  ttl: "ttl",
  expire_time: "expireTime",
  expireTime: "expireTime",
};
/** Output-only fields a client may echo back from a GET; read and ignored. */
const IGNORED_UPDATE_FIELDS = new Set(["name", "createTime", "updateTime", "usageMetadata"]);

/**
 * Parses and validates a cachedContents PATCH body. Only the expiration can change: `ttl` or
 * `expireTime`, one of them. `updateMask` (the query parameter, comma-separated; null when
 * absent) may name `ttl` and `expire_time`/`expireTime` only. A `model` is kept (as
 * `models/{id}`) for the backend to compare with the cache's own: the service accepts one
 * that repeats it (recorded: clients send the model back with a new ttl). Throws ApiError 400.
 */
export function parseCachedContentUpdate(
  body: unknown,
  updateMask: string | null,
): CachedContentUpdate {
  const requestName = "UpdateCachedContentRequest";
  const update = runSchema(cachedContentUpdateSchema, body ?? {}, {
    requestName,
    root: ["cachedContent"],
  });
  const violations = new Violations();
  for (const [key, value] of Object.entries(update)) {
    if (
      value === undefined ||
      key === "ttl" ||
      key === "expireTime" ||
      IGNORED_UPDATE_FIELDS.has(key) ||
      (key === "model" && typeof value === "string" && value !== "")
    )
      continue;
    violations.add(
      `cached_content.${camelToSnake(key)}`,
      `${camelToSnake(key)} cannot be updated; only ttl or expire_time can be updated.`,
    );
  }
  let fields: ("ttl" | "expireTime")[] = [];
  const maskPaths = (updateMask ?? "")
    .split(",")
    .map((path) => path.trim())
    .filter(Boolean);
  if (maskPaths.length) {
    for (const path of maskPaths) {
      const field = UPDATABLE_FIELDS[path];
      if (field === undefined)
        violations.add(
          "update_mask",
          `"${path}" cannot be updated; update_mask may name only ttl or expire_time.`,
        );
      else if (!fields.includes(field)) fields.push(field);
    }
    for (const field of fields) {
      if (update[field] === undefined) {
        violations.add(
          `cached_content.${camelToSnake(field)}`,
          `update_mask names ${camelToSnake(field)} but the body does not set it.`,
        );
      }
    }
  } else {
    fields = (["ttl", "expireTime"] as const).filter((field) => update[field] !== undefined);
    if (fields.length === 0)
      violations.add(
        "cached_content",
        "set ttl or expire_time: only the expiration of a cached content can be updated.",
      );
  }
  if (fields.length > 1)
    violations.add(
      "cached_content.ttl",
      "ttl and expire_time are mutually exclusive; set only one of them.",
    );
  const result: CachedContentUpdate = {};
  if (typeof update.model === "string" && update.model !== "")
    result.model = update.model.startsWith("models/") ? update.model : `models/${update.model}`;
  if (fields.includes("ttl") && update.ttl !== undefined) {
    checkTtl(update.ttl, "cached_content.ttl", violations);
    result.ttl = update.ttl;
  }
  if (fields.includes("expireTime") && update.expireTime !== undefined) {
    checkExpireTime(update.expireTime, "cached_content.expire_time", violations);
    result.expireTime = update.expireTime;
  }
  if (!violations.empty) throw violationError(requestName, violations.list);
  return result;
}
