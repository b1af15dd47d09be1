import "server-only";
import { randomBytes, scryptSync } from "node:crypto";
import { dataStores } from "../persistence/database-handle";
import { serverEnv } from "../config/env";
import { sha256Hex } from "./secure-compare";

/**
 * Browser sessions: an opaque random token in an HttpOnly cookie, stored only as a hash and
 * bound to the access code configured when it was opened (sessionBinding): a changed or
 * removed code ends every session opened with the old one.
 */

export const SESSION_COOKIE = "genstudio_session";
/** Browser sessions share one owner: whoever holds the access code is the studio's user. */
export const BROWSER_OWNER_ID = "studio";

let binding: { code: string | null; development: boolean; value: string } | undefined;

/**
 * What a session is bound to: a slow hash (scrypt) of the configured access code, so the
 * database never holds anything a code could be guessed from quickly; under the development
 * default, or without any code, a fixed word of its own.
 */
export function sessionBinding(): string {
  const { accessCode, developmentDefaults } = serverEnv();
  if (binding?.code !== accessCode || binding.development !== developmentDefaults) {
    const value =
      accessCode !== null
        ? scryptSync(accessCode, "genstudio session binding", 32).toString("base64url")
        : developmentDefaults
          ? "development-default"
          : "no-browser-sign-in";
    binding = { code: accessCode, development: developmentDefaults, value };
  }
  return binding.value;
}

export async function createSession(): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const expiresAt = now + serverEnv().sessionTtlMs;
  await (
    await dataStores()
  ).sessions.create({
    tokenHash: sha256Hex(token),
    ownerId: BROWSER_OWNER_ID,
    codeBinding: sessionBinding(),
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The owner of a live session, or null. */
export async function findSessionOwner(token: string): Promise<string | null> {
  return (await dataStores()).sessions.findOwner(sha256Hex(token), sessionBinding(), Date.now());
}

/** Ends every browser session ("sign out everywhere"); answers how many there were. */
export async function deleteAllSessions(): Promise<number> {
  return (await dataStores()).sessions.deleteOwner(BROWSER_OWNER_ID);
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
