import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { serverEnv } from "../config/env";
import { isLoopbackHost } from "../config/loopback";
import { assertRateAllowed, countRequest, rateSettings } from "../http/limits";
import { dataStores } from "../persistence/database-handle";
import { authenticateKey } from "./key-auth";
import { sha256Hex } from "./secure-compare";
import { fromAnotherOrigin } from "./request-origin";
import { readSessionToken, sessionBinding, sessionCaller } from "./sessions";
import { clientAddress } from "./sign-in-throttle";
import { requestUrl } from "../http/request-url";

/**
 * Authentication, called inside every handler (never only in middleware). Programs send a
 * studio key (`x-goog-api-key` or `?key=`, as the service's clients do); pages send the
 * session cookie, accepted only from the same origin.
 */

const UNREGISTERED_CALLER =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";

function presentedKey(request: Request, bearerKey: boolean): string | null {
  const header = request.headers.get("x-goog-api-key");
  if (header !== null) return header.trim();
  if (bearerKey) {
    const bearer = /^\s*Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
    if (bearer) return bearer[1]!;
  }
  return requestUrl(request).searchParams.get("key");
}

/** Requests that change state with a cookie must come from our own pages. */
export function assertSameOrigin(request: Request): void {
  if (fromAnotherOrigin(request))
    throw ApiError.permissionDenied("Cross-site requests are not allowed with a browser session.");
}

/** The host name a request was addressed to (its Host header), without the port. */
function addressedHost(request: Request): string {
  const host = (request.headers.get("host") ?? "").trim();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.replace(/:\d*$/, "");
}

/**
 * The development defaults (loopback, no credentials) serve only requests addressed to this
 * machine by a loopback name, and none that a browser says came from a page of another
 * origin. A page elsewhere that rebinds its own DNS name to 127.0.0.1 is same-origin with
 * itself, and any page can send a "simple" request without a preflight: without these checks
 * either could open a session or use the published development key from any browser on the
 * machine.
 */
export function assertDevelopmentRequest(request: Request): void {
  if (!serverEnv().developmentDefaults) return;
  const host = addressedHost(request);
  if (!isLoopbackHost(host)) {
    throw ApiError.permissionDenied(
      `The development defaults serve only this machine: this request was addressed to "${host.slice(0, 80)}", not a loopback name (localhost, 127.0.0.1, [::1]). Configure STUDIO_API_KEYS or STUDIO_ACCESS_CODE to serve other names.`,
    );
  }
  // The development key is published: a page of any other site open in a browser on this
  // machine could use it with requests that need no CORS preflight.
  if (fromAnotherOrigin(request)) {
    throw ApiError.permissionDenied(
      "The development defaults serve only this studio's own pages and programs: a page of another origin may not call it. Configure STUDIO_API_KEYS or STUDIO_ACCESS_CODE to serve other origins.",
    );
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface AuthenticateOptions {
  /**
   * Also takes a token of the caller's request rate (429 when none is left): true unless
   * told otherwise, for the API and the studio's own routes alike.
   */
  countRequest?: boolean;
  /**
   * Also takes the key as `Authorization: Bearer <key>`: the OpenAI-compatible endpoint, whose
   * callers (OpenAI's clients) send it no other way, as the service takes it there.
   */
  bearerKey?: boolean;
}

/**
 * Who is calling, or the service's 403/400, and (unless `countRequest` is false) the rate
 * limit's 429. The session lookup and the rate token share one database round trip; a known
 * key costs none for itself (lib/server/auth/key-auth.ts).
 */
export async function authenticate(
  request: Request,
  options: AuthenticateOptions = {},
): Promise<Caller> {
  assertDevelopmentRequest(request);
  const countRate = options.countRequest !== false;
  const key = presentedKey(request, options.bearerKey === true);
  if (key !== null) return authenticateKey(key, countRate);
  const token = readSessionToken(request);
  if (token !== null) {
    const found = await (
      await dataStores()
    ).limits.findSessionOwnerAndTake(
      sha256Hex(token),
      sessionBinding(),
      Date.now(),
      countRate ? rateSettings() : null,
    );
    const caller = found.session === null ? null : await sessionCaller(found.session);
    if (caller !== null) {
      if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request);
      assertRateAllowed(found.rate);
      return caller;
    }
  }
  throw ApiError.permissionDenied(UNREGISTERED_CALLER);
}

/**
 * Counts a request to a studio route that answers anyone (session state, prices) against a
 * rate like every other: the caller's when it has a key or session, else its client address's.
 */
export async function countOpenRequest(request: Request): Promise<void> {
  try {
    await authenticate(request);
  } catch (error) {
    if (!(error instanceof ApiError && error.httpStatus === 403)) throw error;
    await countRequest(`address:${clientAddress(request)}`);
  }
}
