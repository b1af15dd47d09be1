import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { passwordSchema } from "@/lib/studio/people";
import { authenticate } from "../auth/authenticate";
import { sha256Hex } from "../auth/secure-compare";
import { readSessionToken } from "../auth/sessions";
import { errorResponse, jsonResponse } from "../http/responses";
import { changePassword } from "../people/accounts";
import { readStudioJson } from "./studio-json";

/**
 * `/api/account/password`: a person changes their own password from their browser (the
 * current one checked, unless an admin's reset left none); their other browsers are signed out.
 */

const passwordChangeSchema = z
  .object({ currentPassword: z.string().max(1024).optional(), newPassword: passwordSchema })
  .strict();

async function setPassword(request: Request): Promise<Response> {
  try {
    const caller = await authenticate(request);
    const token = readSessionToken(request);
    if (caller.key || !caller.person || token === null)
      throw ApiError.permissionDenied(
        "Only a person signed in with a browser can change their password.",
      );
    const input = await readStudioJson(request, passwordChangeSchema);
    await changePassword(
      request,
      caller.person.id,
      input.currentPassword ?? null,
      input.newPassword,
      sha256Hex(token),
    );
    return jsonResponse({});
  } catch (error) {
    return errorResponse(error);
  }
}

export const accountHandlers = { setPassword };
