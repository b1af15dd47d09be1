import "server-only";
import { headers } from "next/headers";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { SessionState } from "@/lib/studio/people";
import { sessionState } from "../api/session";
import { authenticate } from "../auth/authenticate";

/**
 * The page being rendered, as the API's handlers would see a request from it: its headers at
 * its own address. Pages render what `/api/session` and the studio's lists would answer that
 * browser, so its first paint needs no round trip first (and can show nothing the same
 * request to the API would not).
 */
async function pageRequest(): Promise<Request> {
  const incoming = await headers();
  const host = incoming.get("host") ?? "localhost";
  return new Request(`http://${host}/`, { headers: new Headers(incoming) });
}

/** What `GET /api/session` would answer the browser whose page is being rendered. */
export async function pageSessionState(): Promise<SessionState> {
  return sessionState(await pageRequest());
}

/**
 * The caller of the page being rendered (its browser session), as `authenticate` finds it,
 * without taking a token of its rate; null when it has none (or the request is refused).
 */
export async function pageCaller(): Promise<Caller | null> {
  try {
    return await authenticate(await pageRequest(), { countRequest: false });
  } catch {
    return null;
  }
}
