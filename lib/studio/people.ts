/**
 * People, their keys and workspaces as the studio's pages and endpoints exchange them: the
 * shapes of `/api/account`, `/api/keys` and `/api/admin/*`. Never a password, a hash or a key's
 * secret (a new key's secret travels once, in the answer that created it). Shared by the pages
 * and the server.
 */
import { z } from "zod";
import { keyLimitsSchema, type KeyLimits } from "./key-limits";

export type Role = "admin" | "member";
export const roleSchema = z.enum(["admin", "member"]);

/** Passwords: at least 12 characters (NIST SP 800-63B allows long passphrases; no composition rules). */
export const passwordSchema = z
  .string()
  .min(12, "at least 12 characters")
  .max(1024, "at most 1024 characters");

export const emailSchema = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, "an email address")
  .transform((email) => email.toLowerCase());

export const displayNameSchema = z.string().trim().min(1).max(120);

/** The owner id of a person's workspace: their conversations, files, caches, keys. */
export function personOwnerId(personId: string): string {
  return `person:${personId}`;
}

/** The person whose workspace `ownerId` is, or null (a shared or STUDIO_API_KEYS workspace). */
export function personIdOfOwner(ownerId: string): string | null {
  return ownerId.startsWith("person:") ? ownerId.slice("person:".length) : null;
}

export interface PersonView {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** True when the person has a password (false: invited through a provider only, or reset). */
  hasPassword: boolean;
  /** True when the person signs in through the OpenID Connect provider too. */
  linkedProvider: boolean;
  allowance: KeyLimits | null;
  createdAt: string;
}

export interface PersonLinkView {
  id: string;
  kind: "invitation" | "reset";
  email: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface ApiKeyView {
  id: string;
  name: string;
  /** The start of the key (`gsk_Ab12`), so a person can tell their keys apart. */
  prefix: string;
  limits: KeyLimits;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Spend of the current UTC day and month. */
  spend: { dayTokens: number; dayDollars: number; monthTokens: number; monthDollars: number };
}

/** The answer that creates a key: its one and only showing of the secret. */
export interface CreatedApiKey {
  key: ApiKeyView;
  secret: string;
}

export const keyNameSchema = z.string().trim().min(1).max(80);

export const createKeySchema = z
  .object({ name: keyNameSchema, limits: keyLimitsSchema.optional() })
  .strict();

export const updateKeySchema = z
  .object({ name: keyNameSchema.optional(), limits: keyLimitsSchema.optional() })
  .strict();

/** A workspace an admin may switch to. */
export interface WorkspaceView {
  ownerId: string;
  label: string;
  kind: "person" | "shared" | "environment-key";
}

/** What `/api/session` tells a page about who is signed in and how one signs in. */
export interface SessionState {
  authenticated: boolean;
  /** How this studio signs people in. */
  signIn: "access-code" | "people" | "development";
  /** Kept for pages written before people: true when signing in takes the access code. */
  accessCodeRequired: boolean;
  mode: "local" | "upstream";
  /** The OpenID Connect provider's button label, when one is configured. */
  provider: string | null;
  /** The signed-in person (people mode); `hasPassword` false when they sign in only through the provider. */
  person: { id: string; email: string; name: string; role: Role; hasPassword: boolean } | null;
  /** The workspace this browser acts on, and its label (an admin may switch). */
  workspace: { ownerId: string; label: string; own: boolean } | null;
}
