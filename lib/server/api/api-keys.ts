import "server-only";
import { createKeySchema, updateKeySchema } from "@/lib/studio/people";
import { authenticate } from "../auth/authenticate";
import { errorResponse, jsonResponse } from "../http/responses";
import { createKey, listKeys, revokeKey, updateKey } from "../people/managed-keys";
import { readStudioJson } from "./studio-json";

/**
 * `/api/keys`: the API keys of the caller's workspace, managed from its browser session. GET
 * lists them (never a secret) with today's and this month's spend; POST `{name, limits?}`
 * makes one and answers its secret, the only time it is shown; `/api/keys/{id}` PATCH renames
 * or re-limits, DELETE revokes (at once, on every instance).
 */

async function list(request: Request): Promise<Response> {
  try {
    return jsonResponse({ keys: await listKeys(await authenticate(request)) });
  } catch (error) {
    return errorResponse(error);
  }
}

async function create(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const input = await readStudioJson(request, createKeySchema);
    return jsonResponse(await createKey(caller, input), {
      status: 200,
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

async function update(request: Request, id: string): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const changes = await readStudioJson(request, updateKeySchema);
    return jsonResponse(await updateKey(caller, id, changes));
  } catch (error) {
    return errorResponse(error);
  }
}

async function revoke(request: Request, id: string): Promise<Response> {
  try {
    await revokeKey(await authenticate(request), id);
    return jsonResponse({});
  } catch (error) {
    return errorResponse(error);
  }
}

export const apiKeyHandlers = { list, create, update, revoke };
