import "server-only";
import { z } from "zod";
import { displayNameSchema, passwordSchema, personOwnerId } from "@/lib/studio/people";
import { assertDevelopmentRequest, assertSameOrigin, countOpenRequest } from "../auth/authenticate";
import { createSession, sessionCookie } from "../auth/sessions";
import { jsonResponse } from "../http/responses";
import { lookUpLink, redeemLink } from "../people/links";
import { openStudioEndpoint } from "./studio-endpoint";
import { sessionState } from "./session";

/**
 * `/api/invitations`: what a one-time link (an invitation or a password reset) is for
 * (`lookup`), and using it (`accept`: a name and a password; the browser is then signed in).
 * Anyone may call them: the link's token is the credential. Counted against the client
 * address's rate like the other open routes.
 */

const tokenSchema = z.string().min(20).max(200);
const lookupSchema = z.object({ token: tokenSchema }).strict();
const acceptSchema = z
  .object({ token: tokenSchema, name: displayNameSchema.optional(), password: passwordSchema })
  .strict();

/** The checks of every call here: from this machine's pages, within the address's rate. */
async function admitOpenCall(request: Request): Promise<void> {
  assertDevelopmentRequest(request);
  assertSameOrigin(request);
  await countOpenRequest(request);
}

const lookup = openStudioEndpoint(async ({ request, body }) => {
  await admitOpenCall(request);
  const { token } = await body(lookupSchema);
  return jsonResponse(await lookUpLink(token), { headers: { "Cache-Control": "no-store" } });
});

const accept = openStudioEndpoint(async ({ request, body }) => {
  await admitOpenCall(request);
  const input = await body(acceptSchema);
  const person = await redeemLink(input.token, {
    name: input.name ?? null,
    password: input.password,
  });
  const session = await createSession(person.id);
  const secure = new URL(request.url).protocol === "https:";
  return jsonResponse(
    await sessionState(request, {
      ownerId: personOwnerId(person.id),
      person: { id: person.id, role: person.role },
    }),
    { headers: { "Set-Cookie": sessionCookie(session.token, session.expiresAt, secure) } },
  );
});

export const invitationHandlers = { lookup, accept };
