import "server-only";
import { randomBytes } from "node:crypto";
import { dataStores } from "../persistence/database-handle";
import { serverEnv } from "../config/env";
import { sha256Hex } from "./secure-compare";

/** Browser sessions: an opaque random token in an HttpOnly cookie, stored only as a hash. */

export const SESSION_COOKIE = "genstudio_session";
/** Browser sessions share one owner: whoever holds the access code is the studio's user. */
export const BROWSER_OWNER_ID = "studio";

export async function createSession(): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const expiresAt = now + serverEnv().sessionTtlMs;
  await (
    await dataStores()
  ).sessions.create({
    tokenHash: sha256Hex(token),
    ownerId: BROWSER_OWNER_ID,
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The owner of a live session, or null. */
export async function findSessionOwner(token: string): Promise<string | null> {
  return (await dataStores()).sessions.findOwner(sha256Hex(token), Date.now());
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
