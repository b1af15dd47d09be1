import "server-only";
import { randomBytes, scryptSync } from "node:crypto";
import type { SessionFound } from "@/lib/db/stores/limit-store";
import type { Caller } from "@/lib/gemini/backend/contract";
import { personOwnerId } from "@/lib/studio/people";
import { dataStores } from "../persistence/database-handle";
import { serverEnv } from "../config/env";
import { personById } from "./identity-cache";
import { sha256Hex } from "./secure-compare";

/**
 * Browser sessions: an opaque random token in an HttpOnly cookie, stored only as a hash and
 * bound to the way of signing in configured when it was opened (sessionBinding): a changed or
 * removed access code, or a switch to or from people, ends every session opened before. A
 * person's session lives while the person is enabled; an admin's may act on another
 * workspace (its `workspace_owner_id`).
 */

export const SESSION_COOKIE = "genstudio_session";
/** Browser sessions of the single-person modes share one owner: whoever holds the access code. */
export const BROWSER_OWNER_ID = "studio";

let binding:
  { code: string | null; development: boolean; people: boolean; value: string } | undefined;

/**
 * What a session is bound to: a slow hash (scrypt) of the configured access code, so the
 * database never holds anything a code could be guessed from quickly; under the development
 * default, or without any code, a fixed word of its own.
 */
export function sessionBinding(): string {
  const { accessCode, developmentDefaults, people } = serverEnv();
  if (
    binding?.code !== accessCode ||
    binding.development !== developmentDefaults ||
    binding.people !== (people !== null)
  ) {
    const value =
      people !== null
        ? "people"
        : accessCode !== null
          ? scryptSync(accessCode, "genstudio session binding", 32).toString("base64url")
          : developmentDefaults
            ? "development-default"
            : "no-browser-sign-in";
    binding = {
      code: accessCode,
      development: developmentDefaults,
      people: people !== null,
      value,
    };
  }
  return binding.value;
}

/**
 * The caller of a live session, or null when its person is gone or disabled. An admin's
 * session acts on the workspace it switched to; everyone else's on their own.
 */
export async function sessionCaller(session: SessionFound): Promise<Caller | null> {
  if (session.personId === null) return { ownerId: session.ownerId };
  const person = await personById(session.personId);
  if (person === null || person.disabledAt !== null) return null;
  const ownerId =
    person.role === "admin" && session.workspaceOwnerId !== null
      ? session.workspaceOwnerId
      : personOwnerId(person.id);
  return { ownerId, person: { id: person.id, role: person.role } };
}

/** Opens a session: a person's (people mode), or the shared workspace's. */
export async function createSession(
  personId: string | null = null,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const expiresAt = now + serverEnv().sessionTtlMs;
  await (
    await dataStores()
  ).sessions.create({
    tokenHash: sha256Hex(token),
    ownerId: personId === null ? BROWSER_OWNER_ID : personOwnerId(personId),
    personId,
    codeBinding: sessionBinding(),
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The caller of a live session (its person still enabled), or null. */
export async function findSessionCaller(token: string): Promise<Caller | null> {
  const found = await (
    await dataStores()
  ).sessions.find(sha256Hex(token), sessionBinding(), Date.now());
  return found === null ? null : sessionCaller(found);
}

/**
 * Ends every browser session of this caller ("sign out everywhere"): a person's own, or in the
 * single-person modes every one; answers how many there were.
 */
export async function deleteAllSessions(caller: Caller): Promise<number> {
  const { sessions } = await dataStores();
  return caller.person
    ? sessions.deletePerson(caller.person.id)
    : sessions.deleteOwner(BROWSER_OWNER_ID);
}

export async function deleteSession(token: string): Promise<void> {
  await (await dataStores()).sessions.delete(sha256Hex(token));
}

export function readSessionToken(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const item of header.split(";")) {
    const [name, ...rest] = item.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=") || null;
  }
  return null;
}

export function sessionCookie(token: string, expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}
