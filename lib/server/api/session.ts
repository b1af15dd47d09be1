import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { assertDevelopmentRequest, assertSameOrigin, countOpenRequest } from "../auth/authenticate";
import { serverEnv } from "../config/env";
import { readJsonBody } from "../http/request-body";
import { errorResponse, jsonResponse } from "../http/responses";
import { secretsEqual } from "../auth/secure-compare";
import { admitSignInAttempt } from "../auth/sign-in-throttle";
import {
  clearedSessionCookie,
  createSession,
  deleteAllSessions,
  deleteSession,
  findSessionOwner,
  readSessionToken,
  sessionCookie,
} from "../auth/sessions";

/**
 * `/api/session`: how pages sign in. GET tells whether this browser has a session and
 * whether an access code is needed; POST `{accessCode}` opens one (attempts throttled per
 * client address and overall); DELETE signs out, `?everywhere=true` every browser at once.
 * State-changing calls accept only JSON from the same origin.
 */

export interface SessionState {
  authenticated: boolean;
  accessCodeRequired: boolean;
  mode: "local" | "upstream";
}

function assertJson(request: Request): void {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(
      415,
      "INVALID_ARGUMENT",
      "Session requests must be sent as application/json.",
    );
  }
}

/** What `GET /api/session` answers for a request (pages render with it too, lib/server/auth/page-session.ts). */
export async function sessionState(request: Request): Promise<SessionState> {
  const env = serverEnv();
  const token = readSessionToken(request);
  return {
    authenticated: token !== null && (await findSessionOwner(token)) !== null,
    accessCodeRequired: env.accessCode !== null,
    mode: env.mode,
  };
}

async function GET(request: Request): Promise<Response> {
  try {
    await countOpenRequest(request);
    return jsonResponse(await sessionState(request));
  } catch (error) {
    return errorResponse(error);
  }
}

async function POST(request: Request): Promise<Response> {
  try {
    assertDevelopmentRequest(request);
    assertSameOrigin(request);
    assertJson(request);
    const body = await readJsonBody(request, 4096);
    const env = serverEnv();
    if (env.accessCode !== null) {
      const attempt = await admitSignInAttempt(request);
      const given =
        typeof body === "object" && body !== null
          ? (body as { accessCode?: unknown }).accessCode
          : undefined;
      if (typeof given !== "string" || !secretsEqual(given, env.accessCode)) {
        throw ApiError.permissionDenied("The access code is not correct.");
      }
      await attempt.succeeded();
    } else if (!env.developmentDefaults) {
      throw ApiError.permissionDenied(
        "Browser sign-in is disabled: no STUDIO_ACCESS_CODE is configured. Use a studio API key.",
      );
    }
    const session = await createSession();
    const secure = new URL(request.url).protocol === "https:";
    return jsonResponse(
      { ...(await sessionState(request)), authenticated: true } satisfies SessionState,
      {
        headers: { "Set-Cookie": sessionCookie(session.token, session.expiresAt, secure) },
      },
    );
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * Signs this browser out; with `?everywhere=true`, every browser (only a live session may
 * ask, so no one else can sign the studio's users out).
 */
async function DELETE(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    await countOpenRequest(request);
    const token = readSessionToken(request);
    if (new URL(request.url).searchParams.get("everywhere") === "true") {
      if (token === null || (await findSessionOwner(token)) === null)
        throw ApiError.permissionDenied("Only a signed-in browser can sign out everywhere.");
      await deleteAllSessions();
    } else if (token !== null) {
      await deleteSession(token);
    }
    return jsonResponse({}, { headers: { "Set-Cookie": clearedSessionCookie() } });
  } catch (error) {
    return errorResponse(error);
  }
}

export const sessionHandlers = { GET, POST, DELETE };
