import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { keyLimitsSchema } from "@/lib/studio/key-limits";
import { displayNameSchema, emailSchema, roleSchema } from "@/lib/studio/people";
import { authenticate } from "../auth/authenticate";
import { forgetIdentities } from "../auth/identity-cache";
import { sha256Hex } from "../auth/secure-compare";
import { readSessionToken } from "../auth/sessions";
import { errorResponse, jsonResponse } from "../http/responses";
import { dataStores } from "../persistence/database-handle";
import { inviteSomeone, resetPassword } from "../people/links";
import { linkView, personView } from "../people/views";
import { assertAdmin, checkedWorkspace, listWorkspaces } from "../people/workspaces";
import { readStudioJson } from "./studio-json";

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

type Handler = (request: Request, id?: string) => Promise<Response>;

function adminRoute(
  work: (request: Request, adminId: string, id?: string) => Promise<unknown>,
): Handler {
  return async (request, id) => {
    try {
      const caller = await authenticate(request);
      assertAdmin(caller);
      return jsonResponse(await work(request, caller.person!.id, id), {
        headers: { "Cache-Control": "no-store" },
      });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

const listPeople = adminRoute(async () => ({
  people: (await (await dataStores()).people.list()).map(personView),
}));

const updatePerson = adminRoute(async (request, adminId, id) => {
  const changes = await readStudioJson(request, personChangeSchema);
  if (id === adminId && (changes.disabled === true || changes.role === "member"))
    throw ApiError.invalidArgument("You cannot disable yourself or take your own admin role.");
  const updated = await (await dataStores()).people.update(id!, changes);
  if (updated === null) throw ApiError.notFound(`There is no person ${id!.slice(0, 64)}.`);
  if (updated === "last-admin")
    throw new ApiError(409, "FAILED_PRECONDITION", "The studio must keep one enabled admin.");
  forgetIdentities();
  return personView(updated);
});

const resetPersonPassword = adminRoute(async (request, adminId, id) => {
  const issued = await resetPassword(request, adminId, id!);
  forgetIdentities();
  return issued;
});

const listInvitations = adminRoute(async () => ({
  links: (await (await dataStores()).people.listLinks()).map(linkView),
}));

const createInvitation = adminRoute(async (request, adminId) => {
  const input = await readStudioJson(request, invitationSchema);
  return inviteSomeone(request, adminId, input.email, input.role);
});

const withdrawInvitation = adminRoute(async (_request, _adminId, id) => {
  if (!(await (await dataStores()).people.revokeLink(id!)))
    throw ApiError.notFound(`There is no open link ${id!.slice(0, 64)}.`);
  return {};
});

const workspaces = adminRoute(async () => ({ workspaces: await listWorkspaces() }));

/** `PUT /api/session/workspace {ownerId}`: this admin's browser acts on that workspace (null: their own). */
async function switchWorkspace(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const token = readSessionToken(request);
    if (token === null)
      throw ApiError.permissionDenied("Only a browser session switches workspace.");
    const { ownerId } = await readStudioJson(request, workspaceSchema);
    const chosen = await checkedWorkspace(caller, ownerId);
    await (await dataStores()).sessions.setWorkspace(sha256Hex(token), chosen);
    return jsonResponse({ ownerId: chosen });
  } catch (error) {
    return errorResponse(error);
  }
}

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
