import "server-only";
import { randomBytes } from "node:crypto";
import type { PersonRecord } from "@/lib/db/stores/people-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { PersonLinkView, Role } from "@/lib/studio/people";
import { serverEnv } from "../config/env";
import { requestOrigin } from "../http/upload-protocol";
import { dataStores } from "../persistence/database-handle";
import { forgetIdentities } from "../auth/identity-cache";
import { hashPassword } from "../auth/passwords";
import { sha256Hex } from "../auth/secure-compare";
import { linkView } from "./views";

/**
 * One-time links an admin hands out: an invitation (makes a person with the email and role it
 * names) or a password reset (for one person; their old password stops at once). The token
 * (256 random bits) is in the link's fragment, so it reaches no server log; only its hash is
 * stored. A link works once, before it expires (STUDIO_INVITATION_TTL_HOURS); a newer link of
 * the same kind for the same email withdraws the older.
 */

export interface IssuedLink {
  link: PersonLinkView;
  /** The whole link, shown once to the admin who made it. */
  url: string;
}

const GONE_MESSAGE =
  "This link was already used, has expired or was withdrawn. Ask an admin for a new one.";

/** Where people reach the studio: STUDIO_PUBLIC_URL, else the origin the request was sent to. */
export function studioOrigin(request: Request): string {
  return serverEnv().publicUrl ?? requestOrigin(request);
}

async function issue(
  request: Request,
  link: {
    kind: "invitation" | "reset";
    email: string;
    role: Role;
    personId: string | null;
    createdBy: string;
  },
): Promise<IssuedLink> {
  const { people } = await dataStores();
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await people.revokeLinksFor(link.kind, link.email, now);
  const stored = await people.createLink({
    ...link,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt: now + serverEnv().people!.linkTtlMs,
  });
  return { link: linkView(stored), url: `${studioOrigin(request)}/invitation#${token}` };
}

export async function inviteSomeone(
  request: Request,
  adminId: string,
  email: string,
  role: Role,
): Promise<IssuedLink> {
  if (await (await dataStores()).people.findByEmail(email))
    throw new ApiError(409, "ALREADY_EXISTS", `${email} already has an account.`);
  return issue(request, { kind: "invitation", email, role, personId: null, createdBy: adminId });
}

/** A reset link for a person; their password and sessions end now. */
export async function resetPassword(
  request: Request,
  adminId: string,
  personId: string,
): Promise<IssuedLink> {
  const { people } = await dataStores();
  const person = await people.get(personId);
  if (person === null) throw ApiError.notFound(`There is no person ${personId}.`);
  await people.setPassword(person.id, null, null);
  return issue(request, {
    kind: "reset",
    email: person.email,
    role: person.role,
    personId: person.id,
    createdBy: adminId,
  });
}

/** What a usable link is for, shown on the page that uses it; 404 when it cannot be used. */
export async function lookUpLink(
  token: string,
): Promise<{ kind: "invitation" | "reset"; email: string }> {
  const link = await (await dataStores()).people.findUsableLink(sha256Hex(token), Date.now());
  if (link === null) throw ApiError.notFound(GONE_MESSAGE);
  return { kind: link.kind, email: link.email };
}

/** Uses a link once: makes the invited person, or sets the reset password. */
export async function redeemLink(
  token: string,
  choice: { name: string | null; password: string },
): Promise<PersonRecord> {
  const { people } = await dataStores();
  const passwordHash = await hashPassword(choice.password);
  const now = Date.now();
  const person = await people.useLink(sha256Hex(token), now, async (link, executor) => {
    if (link.kind === "invitation") {
      const made = await people.createInTransaction(
        executor,
        {
          email: link.email,
          name: choice.name ?? link.email.split("@")[0]!,
          role: link.role,
          passwordHash,
        },
        now,
      );
      if (made === null)
        throw new ApiError(409, "ALREADY_EXISTS", `${link.email} already has an account.`);
      return made;
    }
    const reset = await people.resetPasswordInTransaction(
      executor,
      link.personId!,
      passwordHash,
      now,
    );
    if (reset === null) throw ApiError.notFound(GONE_MESSAGE);
    return reset;
  });
  if (person === null) throw ApiError.notFound(GONE_MESSAGE);
  forgetIdentities();
  return person;
}
