import "server-only";
import type { ApiKeyRecord } from "@/lib/db/stores/api-key-store";
import type { KeySpend } from "@/lib/db/stores/limit-store";
import type { PersonLinkRecord, PersonRecord } from "@/lib/db/stores/people-store";
import { NANODOLLARS_PER_DOLLAR } from "@/lib/studio/key-limits";
import type { ApiKeyView, PersonLinkView, PersonView } from "@/lib/studio/people";

/** What the pages see of people, links and keys: never a hash, a token or a secret. */

function time(value: number | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

export function personView(person: PersonRecord): PersonView {
  return {
    id: person.id,
    email: person.email,
    name: person.name,
    role: person.role,
    disabled: person.disabledAt !== null,
    hasPassword: person.passwordHash !== null,
    linkedProvider: person.oidcSubject !== null,
    allowance: person.allowance,
    createdAt: time(person.createdAt)!,
  };
}

export function linkView(link: PersonLinkRecord): PersonLinkView {
  return {
    id: link.id,
    kind: link.kind,
    email: link.email,
    role: link.role,
    createdAt: time(link.createdAt)!,
    expiresAt: time(link.expiresAt)!,
    usedAt: time(link.usedAt),
  };
}

export function keyView(key: ApiKeyRecord, spend: KeySpend | undefined): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    limits: key.limits,
    createdAt: time(key.createdAt)!,
    lastUsedAt: time(key.lastUsedAt),
    revokedAt: time(key.revokedAt),
    spend: {
      dayTokens: spend?.dayTokens ?? 0,
      dayDollars: (spend?.dayNanodollars ?? 0) / NANODOLLARS_PER_DOLLAR,
      monthTokens: spend?.monthTokens ?? 0,
      monthDollars: (spend?.monthNanodollars ?? 0) / NANODOLLARS_PER_DOLLAR,
    },
  };
}
