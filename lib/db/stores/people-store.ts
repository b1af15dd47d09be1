import { randomBytes } from "node:crypto";
import type { KeyLimits } from "@/lib/studio/key-limits";
import type { Role } from "@/lib/studio/people";
import type { SqlDatabase, SqlExecutor } from "../sql-database";
import { bumpAuthVersion } from "./auth-state-store";

/**
 * People and the one-time links that let them in (migration 15). A person has an email (kept
 * lower case, unique), a role, a password hash (never the password; null until one is set), an
 * optional OpenID Connect subject (`issuer subject`), an allowance (the most their keys may
 * have) and, once disabled, the time. A link is an invitation (makes a person) or a password
 * reset (for one): stored as the hash of its token, used at most once, before it expires.
 * Every change to a person that affects what they may do bumps the auth version. One store
 * per resource (ARCHITECTURE.md): every statement of these tables in one place.
 */

export interface PersonRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  oidcSubject: string | null;
  allowance: KeyLimits | null;
  disabledAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface PersonLinkRecord {
  id: string;
  kind: "invitation" | "reset";
  email: string;
  role: Role;
  personId: string | null;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

interface PersonRow {
  id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  oidc_subject: string | null;
  allowance_json: string | null;
  disabled_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

interface LinkRow {
  id: string;
  kind: string;
  email: string;
  role: string;
  person_id: string | null;
  created_by: string;
  created_at: number | string;
  expires_at: number | string;
  used_at: number | string | null;
}

const PERSON_COLUMNS =
  "id, email, name, role, password_hash, oidc_subject, allowance_json, disabled_at, created_at, updated_at";
const LINK_COLUMNS =
  "id, kind, email, role, person_id, created_by, created_at, expires_at, used_at";

function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function personOf(row: PersonRow): PersonRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role === "admin" ? "admin" : "member",
    passwordHash: row.password_hash,
    oidcSubject: row.oidc_subject,
    allowance: row.allowance_json === null ? null : (JSON.parse(row.allowance_json) as KeyLimits),
    disabledAt: nullableNumber(row.disabled_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function linkOf(row: LinkRow): PersonLinkRecord {
  return {
    id: row.id,
    kind: row.kind === "reset" ? "reset" : "invitation",
    email: row.email,
    role: row.role === "admin" ? "admin" : "member",
    personId: row.person_id,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    usedAt: nullableNumber(row.used_at),
  };
}

export interface NewPerson {
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  oidcSubject?: string | null;
}

export interface PersonChanges {
  name?: string;
  role?: Role;
  disabled?: boolean;
  allowance?: KeyLimits | null;
}

export class PeopleStore {
  constructor(private readonly database: SqlDatabase) {}

  private async insertPerson(
    executor: SqlExecutor,
    person: NewPerson,
    now: number,
  ): Promise<PersonRecord> {
    const id = randomBytes(9).toString("base64url");
    await executor.run(
      `INSERT INTO people (id, email, name, role, password_hash, oidc_subject, allowance_json, disabled_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)`,
      [
        id,
        person.email,
        person.name,
        person.role,
        person.passwordHash,
        person.oidcSubject ?? null,
        now,
        now,
      ],
    );
    return (await this.byId(executor, id))!;
  }

  private async byId(executor: SqlExecutor, id: string): Promise<PersonRecord | null> {
    const row = await executor.get<PersonRow>(`SELECT ${PERSON_COLUMNS} FROM people WHERE id = ?`, [
      id,
    ]);
    return row ? personOf(row) : null;
  }

  /** Makes a person; null when the email is taken. */
  async create(person: NewPerson, now = Date.now()): Promise<PersonRecord | null> {
    return this.database.transaction(async (transaction) => {
      await transaction.serialize(`person-email:${person.email}`);
      const taken = await transaction.get("SELECT id FROM people WHERE email = ?", [person.email]);
      if (taken) return null;
      return this.insertPerson(transaction, person, now);
    });
  }

  async get(id: string): Promise<PersonRecord | null> {
    return this.byId(this.database, id);
  }

  async findByEmail(email: string): Promise<PersonRecord | null> {
    const row = await this.database.get<PersonRow>(
      `SELECT ${PERSON_COLUMNS} FROM people WHERE email = ?`,
      [email],
    );
    return row ? personOf(row) : null;
  }

  async findByOidcSubject(subject: string): Promise<PersonRecord | null> {
    const row = await this.database.get<PersonRow>(
      `SELECT ${PERSON_COLUMNS} FROM people WHERE oidc_subject = ?`,
      [subject],
    );
    return row ? personOf(row) : null;
  }

  async list(): Promise<PersonRecord[]> {
    const rows = await this.database.all<PersonRow>(
      `SELECT ${PERSON_COLUMNS} FROM people ORDER BY created_at, id`,
    );
    return rows.map(personOf);
  }

  async countAdmins(): Promise<number> {
    const row = await this.database.get<{ count: number | string }>(
      "SELECT COUNT(*) AS count FROM people WHERE role = 'admin' AND disabled_at IS NULL",
    );
    return Number(row?.count ?? 0);
  }

  /**
   * Changes a person; refuses (answers "last-admin") to leave no enabled admin. Null when there
   * is no such person.
   */
  async update(
    id: string,
    changes: PersonChanges,
    now = Date.now(),
  ): Promise<PersonRecord | "last-admin" | null> {
    return this.database.transaction(async (transaction) => {
      await transaction.serialize("people-admins");
      const person = await this.byId(transaction, id);
      if (!person) return null;
      const role = changes.role ?? person.role;
      const disabledAt =
        changes.disabled === undefined ? person.disabledAt : changes.disabled ? now : null;
      const losesAdmin =
        person.role === "admin" &&
        person.disabledAt === null &&
        (role !== "admin" || disabledAt !== null);
      if (losesAdmin) {
        const others = await transaction.get<{ count: number | string }>(
          "SELECT COUNT(*) AS count FROM people WHERE role = 'admin' AND disabled_at IS NULL AND id <> ?",
          [id],
        );
        if (Number(others?.count ?? 0) === 0) return "last-admin";
      }
      const allowance =
        changes.allowance === undefined ? person.allowance : (changes.allowance ?? null);
      await transaction.run(
        "UPDATE people SET name = ?, role = ?, disabled_at = ?, allowance_json = ?, updated_at = ? WHERE id = ?",
        [
          changes.name ?? person.name,
          role,
          disabledAt,
          allowance === null ? null : JSON.stringify(allowance),
          now,
          id,
        ],
      );
      if (changes.disabled === true)
        await transaction.run("DELETE FROM sessions WHERE person_id = ?", [id]);
      await bumpAuthVersion(transaction);
      return (await this.byId(transaction, id))!;
    });
  }

  /**
   * Sets (or, with null, removes) a person's password and ends their sessions but `keepSession`
   * (the token hash of the session that changed it).
   */
  async setPassword(
    id: string,
    passwordHash: string | null,
    keepSession: string | null,
    now = Date.now(),
  ): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await transaction.run("UPDATE people SET password_hash = ?, updated_at = ? WHERE id = ?", [
        passwordHash,
        now,
        id,
      ]);
      await transaction.run("DELETE FROM sessions WHERE person_id = ? AND token_hash <> ?", [
        id,
        keepSession ?? "",
      ]);
    });
  }

  /** Links a provider's subject to a person (first sign-in through the provider). */
  async linkOidcSubject(id: string, subject: string, now = Date.now()): Promise<void> {
    await this.database.run("UPDATE people SET oidc_subject = ?, updated_at = ? WHERE id = ?", [
      subject,
      now,
      id,
    ]);
  }

  /** Stores a new link (its token only as `tokenHash`). */
  async createLink(
    link: Omit<PersonLinkRecord, "id" | "usedAt"> & { tokenHash: string },
  ): Promise<PersonLinkRecord> {
    const id = randomBytes(9).toString("base64url");
    await this.database.run(
      `INSERT INTO person_links (id, token_hash, kind, email, role, person_id, created_by, created_at, expires_at, used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      [
        id,
        link.tokenHash,
        link.kind,
        link.email,
        link.role,
        link.personId,
        link.createdBy,
        link.createdAt,
        link.expiresAt,
      ],
    );
    return { ...link, id, usedAt: null };
  }

  /** A link that can still be used (unused, unexpired), by its token's hash; null otherwise. */
  async findUsableLink(tokenHash: string, now: number): Promise<PersonLinkRecord | null> {
    const row = await this.database.get<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM person_links WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`,
      [tokenHash, now],
    );
    return row ? linkOf(row) : null;
  }

  /**
   * Uses a link once and does its work in the same transaction: `work` runs only for the one
   * caller that marked it used while unexpired. Null when the link is used, expired or unknown.
   */
  async useLink<T>(
    tokenHash: string,
    now: number,
    work: (link: PersonLinkRecord, executor: SqlExecutor) => Promise<T>,
  ): Promise<T | null> {
    return this.database.transaction(async (transaction) => {
      const marked = await transaction.run(
        "UPDATE person_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
        [now, tokenHash, now],
      );
      if (marked.changes === 0) return null;
      const row = await transaction.get<LinkRow>(
        `SELECT ${LINK_COLUMNS} FROM person_links WHERE token_hash = ?`,
        [tokenHash],
      );
      return work(linkOf(row!), transaction);
    });
  }

  /**
   * Uses the newest usable invitation of `email` (a person invited who signs in through the
   * provider instead of the link), as useLink does. Null when there is none.
   */
  async useInvitationFor<T>(
    email: string,
    now: number,
    work: (link: PersonLinkRecord, executor: SqlExecutor) => Promise<T>,
  ): Promise<T | null> {
    const row = await this.database.get<{ token_hash: string }>(
      `SELECT token_hash FROM person_links
       WHERE kind = 'invitation' AND email = ? AND used_at IS NULL AND expires_at > ?
       ORDER BY created_at DESC LIMIT 1`,
      [email, now],
    );
    return row ? this.useLink(row.token_hash, now, work) : null;
  }

  /** Inside useLink: makes the invited person (null when the email was taken meanwhile). */
  async createInTransaction(
    executor: SqlExecutor,
    person: NewPerson,
    now: number,
  ): Promise<PersonRecord | null> {
    const taken = await executor.get("SELECT id FROM people WHERE email = ?", [person.email]);
    if (taken) return null;
    return this.insertPerson(executor, person, now);
  }

  /** Inside useLink: sets a password and ends every session of the person. */
  async resetPasswordInTransaction(
    executor: SqlExecutor,
    id: string,
    passwordHash: string,
    now: number,
  ): Promise<PersonRecord | null> {
    await executor.run("UPDATE people SET password_hash = ?, updated_at = ? WHERE id = ?", [
      passwordHash,
      now,
      id,
    ]);
    await executor.run("DELETE FROM sessions WHERE person_id = ?", [id]);
    return this.byId(executor, id);
  }

  /** Links not yet used, newest first (expired ones too, marked by their expiry). */
  async listLinks(): Promise<PersonLinkRecord[]> {
    const rows = await this.database.all<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM person_links WHERE used_at IS NULL ORDER BY created_at DESC, id`,
    );
    return rows.map(linkOf);
  }

  /** Withdraws an unused link; false when there was none. */
  async revokeLink(id: string, now = Date.now()): Promise<boolean> {
    const result = await this.database.run(
      "UPDATE person_links SET used_at = ?, expires_at = ? WHERE id = ? AND used_at IS NULL",
      [now, now, id],
    );
    return result.changes > 0;
  }

  /** Withdraws every unused link of one kind for `email` (a new one replaces them). */
  async revokeLinksFor(
    kind: "invitation" | "reset",
    email: string,
    now = Date.now(),
  ): Promise<void> {
    await this.database.run(
      "UPDATE person_links SET used_at = ?, expires_at = ? WHERE kind = ? AND email = ? AND used_at IS NULL",
      [now, now, kind, email],
    );
  }
}
