import "server-only";
import type { PersonRecord } from "@/lib/db/stores/people-store";
import { ApiError } from "@/lib/gemini/api-error";
import { serverEnv } from "../config/env";
import { logger } from "../config/logger";
import { dataStores } from "../persistence/database-handle";
import { forgetIdentities } from "../auth/identity-cache";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { admitSignInAttempt } from "../auth/sign-in-throttle";

/**
 * People mode's accounts: the first admin from the environment, signing in with an email and
 * a password (throttled per account and address, lib/server/auth/sign-in-throttle), and
 * changing one's own password.
 */

/**
 * Makes the first admin (STUDIO_ADMIN_EMAIL) at start when no person has that email; an
 * existing one is kept an enabled admin, its password left as its owner set it.
 */
export async function ensureFirstAdmin(): Promise<void> {
  const people = serverEnv().people;
  if (people === null) return;
  const { people: store } = await dataStores();
  const existing = await store.findByEmail(people.adminEmail);
  if (existing === null) {
    const created = await store.create({
      email: people.adminEmail,
      name: people.adminEmail.split("@")[0]!,
      role: "admin",
      passwordHash: people.adminPassword === null ? null : await hashPassword(people.adminPassword),
    });
    if (created) logger.info(`made the first admin, ${people.adminEmail}`);
    return;
  }
  if (existing.role !== "admin" || existing.disabledAt !== null) {
    await store.update(existing.id, { role: "admin", disabled: false });
    forgetIdentities();
    logger.info(`${people.adminEmail} (STUDIO_ADMIN_EMAIL) is an enabled admin again`);
  }
}

const WRONG_CREDENTIALS = "The email or password is not correct.";

/**
 * The person an email and password sign in, or the service's 403 (one message for an unknown
 * email, a wrong password and a disabled account, taking the same time) or the throttle's 429.
 */
export async function signInWithPassword(
  request: Request,
  email: string,
  password: string,
): Promise<PersonRecord> {
  const attempt = await admitSignInAttempt(request, `email:${email}`);
  const person = await (await dataStores()).people.findByEmail(email);
  const right = await verifyPassword(password, person?.passwordHash ?? null);
  if (!right || person === null || person.disabledAt !== null)
    throw ApiError.permissionDenied(WRONG_CREDENTIALS);
  await attempt.succeeded();
  return person;
}

/** Changes one's own password (the current one checked, throttled as a sign-in); other sessions end. */
export async function changePassword(
  request: Request,
  personId: string,
  current: string | null,
  next: string,
  sessionTokenHash: string,
): Promise<void> {
  const { people } = await dataStores();
  const person = await people.get(personId);
  if (person === null) throw ApiError.permissionDenied(WRONG_CREDENTIALS);
  if (person.passwordHash !== null) {
    const attempt = await admitSignInAttempt(request, `email:${person.email}`);
    if (current === null || !(await verifyPassword(current, person.passwordHash)))
      throw ApiError.permissionDenied("The current password is not correct.");
    await attempt.succeeded();
  }
  await people.setPassword(personId, await hashPassword(next), sessionTokenHash);
}
