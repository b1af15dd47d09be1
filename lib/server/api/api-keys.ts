import "server-only";
import { createKeySchema, updateKeySchema } from "@/lib/studio/people";
import { recordAudit } from "../audit/audit-log";
import { jsonResponse } from "../http/responses";
import { createKey, listKeys, revokeKey, updateKey } from "../people/managed-keys";
import { studioEndpoint } from "./studio-endpoint";

/**
 * `/api/keys`: the API keys of the caller's workspace, managed from its browser session. GET
 * lists them (never a secret) with today's and this month's spend; POST `{name, limits?}`
 * makes one and answers its secret, the only time it is shown; `/api/keys/{id}` PATCH renames
 * or re-limits, DELETE revokes (at once, on every instance).
 */

const list = studioEndpoint(async ({ caller }) => jsonResponse({ keys: await listKeys(caller) }));

const create = studioEndpoint(async ({ caller, body }) => {
  const input = await body(createKeySchema);
  const created = await createKey(caller, input);
  await recordAudit(caller, "key.create", `key:${created.key.id}`, {
    name: input.name,
    ...(input.limits ? { limits: input.limits } : {}),
  });
  return jsonResponse(created, { status: 200, headers: { "Cache-Control": "no-store" } });
});

const update = studioEndpoint(async ({ caller, body }, id: string) => {
  const changes = await body(updateKeySchema);
  const updated = await updateKey(caller, id, changes);
  await recordAudit(caller, "key.update", `key:${id}`, changes);
  return jsonResponse(updated);
});

const revoke = studioEndpoint(async ({ caller }, id: string) => {
  await revokeKey(caller, id);
  await recordAudit(caller, "key.revoke", `key:${id}`);
  return jsonResponse({});
});

export const apiKeyHandlers = { list, create, update, revoke };
