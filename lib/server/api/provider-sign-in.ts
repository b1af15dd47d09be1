import "server-only";
import { assertDevelopmentRequest, countOpenRequest } from "../auth/authenticate";
import { createSession, sessionCookie } from "../auth/sessions";
import { logger } from "../config/logger";
import { toApiError } from "../http/responses";
import { studioOrigin } from "../people/links";
import { clearedFlowCookie, finishProviderSignIn, startProviderSignIn } from "../people/oidc";

/**
 * `/api/session/oidc`: the browser's way to the provider (a redirect) and back
 * (`/callback`: the session is opened and the browser sent home). Both are top-level
 * navigations, so failures come back as a redirect to the sign-in page with the reason.
 */

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

function failed(request: Request, error: unknown): Response {
  const apiError = toApiError(error);
  if (apiError.httpStatus >= 500) logger.warn("sign-in through the provider failed", error);
  const home = new URL("/", studioOrigin(request));
  home.searchParams.set("sign_in_error", apiError.message.slice(0, 300));
  return redirect(home.href, [clearedFlowCookie()]);
}

async function start(request: Request): Promise<Response> {
  try {
    assertDevelopmentRequest(request);
    await countOpenRequest(request);
    const { location, cookie } = await startProviderSignIn(request);
    return redirect(location, [cookie]);
  } catch (error) {
    return failed(request, error);
  }
}

async function callback(request: Request): Promise<Response> {
  try {
    assertDevelopmentRequest(request);
    await countOpenRequest(request);
    const person = await finishProviderSignIn(request);
    const session = await createSession(person.id);
    const origin = studioOrigin(request);
    return redirect(`${origin}/`, [
      clearedFlowCookie(),
      sessionCookie(session.token, session.expiresAt, origin.startsWith("https:")),
    ]);
  } catch (error) {
    return failed(request, error);
  }
}

export const providerSignInHandlers = { start, callback };
