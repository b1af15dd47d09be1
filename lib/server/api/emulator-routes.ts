import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { emulatorOf, type EmulatedBackend, type Emulator } from "@/lib/engine/emulator";
import { exchangeScope } from "@/lib/engine/emulator/exchange-scope";
import { expireCachedContentNow, expireFileNow } from "@/lib/engine/emulator/expire-now";
import { authenticate } from "../auth/authenticate";
import { backend } from "../wiring/active-backend";
import { readJsonBody } from "../http/request-body";
import { errorResponse, jsonResponse } from "../http/responses";
import { invalidFields } from "@/lib/engine/emulator/scenario-schema";
import { readCassette } from "@/lib/engine/emulator/cassettes/cassette-format";
import { readBodyBytes } from "../emulator/body-bytes";

/**
 * The emulator's own surface, `/emulator/...`, authenticated with the same keys (or the
 * studio's session) and scoped to the caller: scenarios, the request log, and the controls of
 * state and time. Only the local engine has an emulator: the gateway answers the service's 404
 * here, as for any path it does not serve.
 */

interface EmulatorContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  ownerId: string;
  emulator: Emulator;
  backend: EmulatedBackend;
}

type EmulatorHandler = (context: EmulatorContext) => Promise<Response>;

interface EmulatorRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  pattern: RegExp;
  handler: EmulatorHandler;
}

/** Scenario bodies stay small; thousands of scenarios fit in a few megabytes. */
const BODY_LIMIT = 64 * 1024 * 1024;

const ROUTES: EmulatorRoute[] = [
  { method: "GET", pattern: /^scenarios$/, handler: listScenarios },
  { method: "POST", pattern: /^scenarios$/, handler: registerScenarios },
  { method: "DELETE", pattern: /^scenarios$/, handler: clearScenarios },
  { method: "GET", pattern: /^scenarios\/(?<id>[^/]+)$/, handler: getScenario },
  { method: "PUT", pattern: /^scenarios\/(?<id>[^/]+)$/, handler: replaceScenario },
  { method: "DELETE", pattern: /^scenarios\/(?<id>[^/]+)$/, handler: deleteScenario },
  { method: "GET", pattern: /^requests$/, handler: listRequests },
  { method: "DELETE", pattern: /^requests$/, handler: clearRequests },
  { method: "GET", pattern: /^requests\/(?<id>[^/]+)$/, handler: getRequest },
  { method: "GET", pattern: /^cassettes$/, handler: listCassettes },
  { method: "POST", pattern: /^cassettes$/, handler: addCassette },
  { method: "DELETE", pattern: /^cassettes$/, handler: clearCassettes },
  { method: "DELETE", pattern: /^cassettes\/(?<name>[^/]+)$/, handler: deleteCassette },
  { method: "GET", pattern: /^controls$/, handler: getControls },
  { method: "PUT", pattern: /^controls$/, handler: setControls },
  { method: "DELETE", pattern: /^controls$/, handler: resetControls },
  { method: "POST", pattern: /^files\/(?<id>[^/:]+):expire$/, handler: expireFile },
  { method: "POST", pattern: /^cachedContents\/(?<id>[^/:]+):expire$/, handler: expireCache },
];

/** Serves one request under `/emulator/`. Never throws: every failure is the service's error body. */
export async function handleEmulatorRequest(request: Request): Promise<Response> {
  try {
    const url = new URL(request.url);
    const rest = url.pathname.replace(/^\/emulator\/?/, "");
    const notFound = () => ApiError.notFound(`Method not found: ${request.method} ${url.pathname}`);
    const active = await backend();
    const emulator = emulatorOf(active);
    if (!emulator) throw notFound();
    let pathKnown = false;
    for (const route of ROUTES) {
      const found = route.pattern.exec(rest);
      if (!found) continue;
      if (route.method !== request.method) {
        pathKnown = true;
        continue;
      }
      const caller = await authenticate(request);
      const context: EmulatorContext = {
        request,
        url,
        params: decodeParams(found.groups ?? {}),
        ownerId: caller.ownerId,
        emulator,
        backend: active as EmulatedBackend,
      };
      // The caller's clock applies to what these read and change, as to its API requests.
      const scope = { ownerId: caller.ownerId, headers: request.headers, notes: {} };
      return await exchangeScope.run(scope, () => route.handler(context));
    }
    if (pathKnown)
      throw new ApiError(
        405,
        "UNIMPLEMENTED",
        `Method ${request.method} is not allowed for ${url.pathname}.`,
      );
    throw notFound();
  } catch (error) {
    return errorResponse(error);
  }
}

function decodeParams(groups: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(groups)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw ApiError.invalidArgument(`The ${name} in the path is not valid percent-encoding.`);
    }
  }
  return params;
}

async function listScenarios({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  return jsonResponse({ scenarios: emulator.scenarios.list(ownerId) });
}

/** One scenario (answered as registered), a list, or `{ scenarios: [...] }` (answered as a list). */
async function registerScenarios({
  request,
  emulator,
  ownerId,
}: EmulatorContext): Promise<Response> {
  const body = await readJsonBody(request, BODY_LIMIT);
  const list = Array.isArray(body)
    ? body
    : isObject(body) && Array.isArray(body.scenarios) && Object.keys(body).length === 1
      ? body.scenarios
      : null;
  if (list !== null) {
    if (list.length === 0)
      throw invalidFields([
        { field: "scenarios", description: "is empty: send at least one scenario" },
      ]);
    return jsonResponse({ scenarios: emulator.scenarios.register(ownerId, list, true) });
  }
  const [registered] = emulator.scenarios.register(ownerId, [body], false);
  return jsonResponse(registered);
}

async function clearScenarios({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  emulator.scenarios.clear(ownerId);
  return jsonResponse({});
}

async function getScenario({ emulator, ownerId, params }: EmulatorContext): Promise<Response> {
  return jsonResponse(emulator.scenarios.get(ownerId, params.id!));
}

async function replaceScenario({
  request,
  emulator,
  ownerId,
  params,
}: EmulatorContext): Promise<Response> {
  const body = await readJsonBody(request, BODY_LIMIT);
  return jsonResponse(emulator.scenarios.replace(ownerId, params.id!, body));
}

async function deleteScenario({ emulator, ownerId, params }: EmulatorContext): Promise<Response> {
  emulator.scenarios.remove(ownerId, params.id!);
  return jsonResponse({});
}

async function listRequests({ url, emulator, ownerId }: EmulatorContext): Promise<Response> {
  const query = url.searchParams;
  const operation = query.get("operation") ?? undefined;
  const model = query.get("model") ?? undefined;
  const since = readSince(query.get("since"));
  const limitText = query.get("limit");
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw invalidQuery("limit", "is not a positive whole number");
  return jsonResponse({
    requests: emulator.requestLog.list(ownerId, {
      ...(operation ? { operation } : {}),
      ...(model ? { model } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(limit !== undefined ? { limit } : {}),
    }),
  });
}

async function getRequest({ emulator, ownerId, params }: EmulatorContext): Promise<Response> {
  const entry = emulator.requestLog.get(ownerId, params.id!);
  if (!entry)
    throw ApiError.notFound(`Request ${params.id!.slice(0, 80)} is not in your request log.`);
  return jsonResponse(entry);
}

async function clearRequests({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  emulator.requestLog.clear(ownerId);
  return jsonResponse({});
}

/** `since` as RFC 3339 or milliseconds since the epoch. */
function readSince(text: string | null): number | undefined {
  if (text === null || text === "") return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(value))
    throw invalidQuery("since", "is neither an RFC 3339 time nor milliseconds since the epoch");
  return value;
}

function invalidQuery(field: string, description: string): ApiError {
  return ApiError.invalidArgument(`Invalid query parameter ${field}: ${description}.`, [
    { field, description },
  ]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function getControls({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  return jsonResponse(emulator.controls.view(ownerId));
}

async function setControls({ request, emulator, ownerId }: EmulatorContext): Promise<Response> {
  return jsonResponse(emulator.controls.set(ownerId, await readJsonBody(request, BODY_LIMIT)));
}

async function resetControls({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  emulator.controls.reset(ownerId);
  return jsonResponse({});
}

async function expireFile({
  backend,
  emulator,
  ownerId,
  params,
}: EmulatorContext): Promise<Response> {
  await expireFileNow(backend.storage, { ownerId }, `files/${params.id!}`, emulator.controls.now());
  return jsonResponse({});
}

async function expireCache({
  backend,
  emulator,
  ownerId,
  params,
}: EmulatorContext): Promise<Response> {
  const name = `cachedContents/${params.id!}`;
  await expireCachedContentNow(backend.storage, { ownerId }, name, emulator.controls.now());
  return jsonResponse({});
}

async function listCassettes({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  return jsonResponse({ cassettes: emulator.replay.list(ownerId) });
}

/**
 * A cassette as the body (JSON lines, as GENSTUDIO_RECORD writes them), its name and replay
 * options in the query: `name`, `match` (normalised | exact), `pace` (recorded | full),
 * `onMiss` (engine | fail). Checked whole before it is added: a bad line adds nothing.
 */
async function addCassette({
  request,
  url,
  emulator,
  ownerId,
}: EmulatorContext): Promise<Response> {
  const query = url.searchParams;
  const choice = <T extends string>(field: string, allowed: readonly T[], fallback: T): T => {
    const value = query.get(field);
    if (value === null) return fallback;
    if (!(allowed as readonly string[]).includes(value))
      throw invalidQuery(field, `is not one of ${allowed.join(", ")}`);
    return value as T;
  };
  const name = query.get("name") ?? "cassette";
  if (!/^[\w.-]{1,100}$/.test(name))
    throw invalidQuery("name", "is not 1 to 100 letters, digits, dots, dashes or underscores");
  const options = {
    match: choice("match", ["normalised", "exact"] as const, "normalised"),
    pace: choice("pace", ["recorded", "full"] as const, "recorded"),
    onMiss: choice("onMiss", ["engine", "fail"] as const, "engine"),
  };
  const text = new TextDecoder().decode(await readBodyBytes(request, BODY_LIMIT));
  const exchanges = readCassette(text, name);
  return jsonResponse(emulator.replay.add(ownerId, name, exchanges, options));
}

async function clearCassettes({ emulator, ownerId }: EmulatorContext): Promise<Response> {
  emulator.replay.clear(ownerId);
  return jsonResponse({});
}

async function deleteCassette({ emulator, ownerId, params }: EmulatorContext): Promise<Response> {
  if (!emulator.replay.remove(ownerId, params.name!))
    throw ApiError.notFound(
      `Cassette ${params.name!.slice(0, 100)} does not exist (or is not yours).`,
    );
  return jsonResponse({});
}
