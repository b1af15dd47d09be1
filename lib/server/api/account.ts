import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { passwordSchema } from "@/lib/studio/people";
import { sha256Hex } from "../auth/secure-compare";
import { readSessionToken } from "../auth/sessions";
import { jsonResponse } from "../http/responses";
import { changePassword } from "../people/accounts";
import { studioEndpoint } from "./studio-endpoint";

/**
 * `/api/account/password`: a person changes their own password from their browser (the
 * current one checked, unless an admin's reset left none); their other browsers are signed out.
 */

const passwordChangeSchema = z
  .object({ currentPassword: z.string().max(1024).optional(), newPassword: passwordSchema })
  .strict();

const setPassword = studioEndpoint(async ({ request, caller, body }) => {
  const token = readSessionToken(request);
  if (caller.key || !caller.person || token === null)
    throw ApiError.permissionDenied(
      "Only a person signed in with a browser can change their password.",
    );
  const input = await body(passwordChangeSchema);
  await changePassword(
    request,
    caller.person.id,
    input.currentPassword ?? null,
    input.newPassword,
    sha256Hex(token),
  );
  return jsonResponse({});
});

export const accountHandlers = { setPassword };
