import "server-only";
import type { AuditEvent } from "@/lib/db/stores/audit-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { personById } from "../auth/identity-cache";
import { readFilters } from "../http/query-filters";
import { dataStores } from "../persistence/database-handle";

/**
 * The audit log: who did what, to what, when. Recorded by the endpoints of admin actions and
 * key changes after the change is made (an action the database refused is not recorded);
 * details say what changed, never a secret (no password, link token or key secret). Read by
 * admins (and the one person of the single-person modes).
 */

async function actorOf(caller: Caller): Promise<{ actorId: string; actor: string }> {
  if (!caller.person) return { actorId: "", actor: "shared workspace (access code)" };
  const person = await personById(caller.person.id);
  return { actorId: caller.person.id, actor: person?.email ?? `person ${caller.person.id}` };
}

export async function recordAudit(
  caller: Caller,
  action: string,
  target: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  await (await dataStores()).audit.add({ ...(await actorOf(caller)), action, target, details });
}

const AUDIT_FILTERS = {
  action: { kind: "text", max: 64 },
  actorId: { kind: "text", max: 100 },
  from: { kind: "time" },
  to: { kind: "time" },
  before: { kind: "text", max: 200 },
  limit: { kind: "integer", min: 1, max: 500 },
} as const;

export interface AuditPage {
  events: Array<Omit<AuditEvent, "at"> & { at: string }>;
  nextBefore?: string;
}

export async function listAudit(caller: Caller, url: URL): Promise<AuditPage> {
  if (caller.key || (caller.person && caller.person.role !== "admin"))
    throw ApiError.permissionDenied(
      "Only an admin, signed in with a browser, reads the audit log.",
    );
  const filters = readFilters(url, AUDIT_FILTERS);
  const cursor =
    filters.before === undefined ? null : /^(\d{1,15})\.([\w-]{1,100})$/.exec(filters.before);
  if (filters.before !== undefined && cursor === null)
    throw ApiError.invalidArgument("Invalid value for before: the nextBefore of the page before.", [
      { field: "before", description: "the nextBefore of the page before" },
    ]);
  const limit = filters.limit ?? 50;
  const events = await (
    await dataStores()
  ).audit.list({
    ...(filters.action !== undefined ? { action: filters.action } : {}),
    ...(filters.actorId !== undefined ? { actorId: filters.actorId } : {}),
    ...(filters.from !== undefined ? { from: filters.from } : {}),
    ...(filters.to !== undefined ? { to: filters.to } : {}),
    ...(cursor ? { before: { at: Number(cursor[1]), id: cursor[2]! } } : {}),
    limit,
  });
  const last = events[events.length - 1];
  return {
    events: events.map((event) => ({ ...event, at: new Date(event.at).toISOString() })),
    ...(events.length === limit && last ? { nextBefore: `${last.at}.${last.id}` } : {}),
  };
}
