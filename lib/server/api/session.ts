import "server-only";
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { emailSchema, personOwnerId, type SessionState } from "@/lib/studio/people";
import { assertDevelopmentRequest, assertSameOrigin, countOpenRequest } from "../auth/authenticate";
import { personById } from "../auth/identity-cache";
import { secretsEqual } from "../auth/secure-compare";
import {
  BROWSER_OWNER_ID,
  clearedSessionCookie,
  createSession,
  deleteAllSessions,
  deleteSession,
  findSessionCaller,
  readSessionToken,
  sessionCookie,
} from "../auth/sessions";
import { admitSignInAttempt } from "../auth/sign-in-throttle";
import { serverEnv } from "../config/env";
import { jsonResponse } from "../http/responses";
import { signInWithPassword } from "../people/accounts";
import { workspaceOf } from "../people/workspaces";
import { openStudioEndpoint, type OpenStudioCall } from "./studio-endpoint";

/**
 * `/api/session`: how pages sign in. GET tells whether this browser has a session, who it is
 * and how one signs in here; POST opens one: `{email, password}` with people (attempts
 * throttled per account and address), `{accessCode}` with the access code, `{}` under the
 * development default; DELETE signs out, `?everywhere=true` every browser of this person (or,
 * with the access code, every browser). State-changing calls accept only JSON from the same
 * origin.
 */

const signInSchema = z
  .object({
    accessCode: z.string().max(1024).optional(),
    email: emailSchema.optional(),
    password: z.string().max(1024).optional(),
  })
  .strict();

/** What the pages are told about this browser's session (pages render with it too, lib/server/pages/page-session.ts). */
export async function sessionState(
  request: Request,
  caller?: Caller | null,
): Promise<SessionState> {
  const env = serverEnv();
  const token = readSessionToken(request);
  const found = caller ?? (token === null ? null : await findSessionCaller(token));
  const person = found?.person ? await personById(found.person.id) : null;
  return {
    authenticated: found !== null,
    signIn:
      env.people !== null ? "people" : env.accessCode !== null ? "access-code" : "development",
    accessCodeRequired: env.accessCode !== null,
    mode: env.mode,
    provider: env.people?.oidc?.name ?? null,
    person:
      person === null
        ? null
        : {
            id: person.id,
            email: person.email,
            name: person.name,
            role: person.role,
            hasPassword: person.passwordHash !== null,
          },
    workspace: found === null ? null : await workspaceOf(found),
  };
}

const GET = openStudioEndpoint(async ({ request }) => {
  await countOpenRequest(request);
  return jsonResponse(await sessionState(request));
});

/** The person signing in (people), or null for the shared workspace; throws when refused. */
async function signedIn({ request, body: readBody }: OpenStudioCall): Promise<string | null> {
  const body = await readBody(signInSchema, 4096);
  const env = serverEnv();
  if (env.people !== null) {
    if (body.email === undefined || body.password === undefined)
      throw ApiError.invalidArgument("Sign in with your email and password.");
    return (await signInWithPassword(request, body.email, body.password)).id;
  }
  if (env.accessCode !== null) {
    const attempt = await admitSignInAttempt(request, "access-code");
    if (typeof body.accessCode !== "string" || !secretsEqual(body.accessCode, env.accessCode))
      throw ApiError.permissionDenied("The access code is not correct.");
    await attempt.succeeded();
    return null;
  }
  if (!env.developmentDefaults) {
    throw ApiError.permissionDenied(
      "Browser sign-in is disabled: no STUDIO_ACCESS_CODE is configured. Use a studio API key.",
    );
  }
  return null;
}

const POST = openStudioEndpoint(async (call) => {
  const { request } = call;
  assertDevelopmentRequest(request);
  assertSameOrigin(request);
  const personId = await signedIn(call);
  const session = await createSession(personId);
  const secure = new URL(request.url).protocol === "https:";
  const person = personId === null ? null : await personById(personId);
  const caller: Caller = person
    ? { ownerId: personOwnerId(person.id), person: { id: person.id, role: person.role } }
    : { ownerId: BROWSER_OWNER_ID };
  return jsonResponse(await sessionState(request, caller), {
    headers: { "Set-Cookie": sessionCookie(session.token, session.expiresAt, secure) },
  });
});

/**
 * Signs this browser out; with `?everywhere=true`, every browser of this person (only a live
 * session may ask, so no one else can sign anyone out).
 */
const DELETE = openStudioEndpoint(async ({ request }) => {
  assertSameOrigin(request);
  await countOpenRequest(request);
  const token = readSessionToken(request);
  if (new URL(request.url).searchParams.get("everywhere") === "true") {
    const caller = token === null ? null : await findSessionCaller(token);
    if (caller === null)
      throw ApiError.permissionDenied("Only a signed-in browser can sign out everywhere.");
    await deleteAllSessions(caller);
  } else if (token !== null) {
    await deleteSession(token);
  }
  return jsonResponse({}, { headers: { "Set-Cookie": clearedSessionCookie() } });
});

export const sessionHandlers = { GET, POST, DELETE };
