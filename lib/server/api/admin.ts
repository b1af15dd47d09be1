import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { keyLimitsSchema } from "@/lib/studio/key-limits";
import { displayNameSchema, emailSchema, roleSchema } from "@/lib/studio/people";
import { recordAudit } from "../audit/audit-log";
import { forgetIdentities } from "../auth/identity-cache";
import { sha256Hex } from "../auth/secure-compare";
import { readSessionToken } from "../auth/sessions";
import { jsonResponse } from "../http/responses";
import { inviteSomeone, resetPassword } from "../people/links";
import { linkView, personView } from "../people/views";
import { assertAdmin, checkedWorkspace, listWorkspaces } from "../people/workspaces";
import { studioEndpoint, type StudioCall } from "./studio-endpoint";

/**
 * `/api/admin/*`, for admins signed in with a browser: people (list; change name, role,
 * allowance; disable and enable; a password reset link), invitations (list, make, withdraw),
 * workspaces (list, and `PUT /api/session/workspace` to act on one). A link's whole URL is
 * answered once, to the admin who made it.
 */

const personChangeSchema = z
  .object({
    name: displayNameSchema.optional(),
    role: roleSchema.optional(),
    disabled: z.boolean().optional(),
    allowance: keyLimitsSchema.nullable().optional(),
  })
  .strict();
const invitationSchema = z
  .object({ email: emailSchema, role: roleSchema.default("member") })
  .strict();
const workspaceSchema = z.object({ ownerId: z.string().min(1).max(200).nullable() }).strict();

/** An admin's endpoint: the caller must be an admin; the answer is JSON, never cached. */
function adminEndpoint(
  work: (call: StudioCall & { adminId: string }, id: string | undefined) => Promise<unknown>,
) {
  return studioEndpoint(async (call, id?: string) => {
    assertAdmin(call.caller);
    return jsonResponse(await work({ ...call, adminId: call.caller.person!.id }, id), {
      headers: { "Cache-Control": "no-store" },
    });
  });
}

const listPeople = adminEndpoint(async ({ stores: { people } }) => ({
  people: (await people.list()).map(personView),
}));

const updatePerson = adminEndpoint(async ({ adminId, caller, stores: { people }, body }, id) => {
  const changes = await body(personChangeSchema);
  if (id === adminId && (changes.disabled === true || changes.role === "member"))
    throw ApiError.invalidArgument("You cannot disable yourself or take your own admin role.");
  const updated = await people.update(id!, changes);
  if (updated === null) throw ApiError.notFound(`There is no person ${id!.slice(0, 64)}.`);
  if (updated === "last-admin")
    throw new ApiError(409, "FAILED_PRECONDITION", "The studio must keep one enabled admin.");
  forgetIdentities();
  await recordAudit(caller, "person.update", `person:${id!}`, changes);
  return personView(updated);
});

const resetPersonPassword = adminEndpoint(async ({ request, adminId, caller }, id) => {
  const issued = await resetPassword(request, adminId, id!);
  forgetIdentities();
  await recordAudit(caller, "person.reset-password", `person:${id!}`);
  return issued;
});

const listInvitations = adminEndpoint(async ({ stores: { people } }) => ({
  links: (await people.listLinks()).map(linkView),
}));

const createInvitation = adminEndpoint(async ({ request, adminId, caller, body }) => {
  const input = await body(invitationSchema);
  const issued = await inviteSomeone(request, adminId, input.email, input.role);
  await recordAudit(caller, "invitation.create", `email:${input.email}`, { role: input.role });
  return issued;
});

const withdrawInvitation = adminEndpoint(async ({ caller, stores: { people } }, id) => {
  if (!(await people.revokeLink(id!)))
    throw ApiError.notFound(`There is no open link ${id!.slice(0, 64)}.`);
  await recordAudit(caller, "invitation.withdraw", `link:${id!}`);
  return {};
});

const workspaces = adminEndpoint(async () => ({ workspaces: await listWorkspaces() }));

/** `PUT /api/session/workspace {ownerId}`: this admin's browser acts on that workspace (null: their own). */
const switchWorkspace = studioEndpoint(async ({ request, caller, stores: { sessions }, body }) => {
  const token = readSessionToken(request);
  if (token === null) throw ApiError.permissionDenied("Only a browser session switches workspace.");
  const { ownerId } = await body(workspaceSchema);
  const chosen = await checkedWorkspace(caller, ownerId);
  await sessions.setWorkspace(sha256Hex(token), chosen);
  await recordAudit(caller, "workspace.switch", `workspace:${chosen ?? "own"}`);
  return jsonResponse({ ownerId: chosen });
});

export const adminHandlers = {
  listPeople,
  updatePerson,
  resetPersonPassword,
  listInvitations,
  createInvitation,
  withdrawInvitation,
  workspaces,
  switchWorkspace,
};
