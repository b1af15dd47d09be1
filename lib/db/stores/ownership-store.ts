import { randomBytes } from "node:crypto";
import type { SqlDatabase, SqlExecutor } from "../sql-database";
import { admitWithinQuota, type QuotaAdmission, type QuotaUsage } from "./quota-admission";

/**
 * Who created which file, cached content, batch and file search store through the gateway (migrations 4 and 10). The
 * upstream sees one project (the server's key); these records keep one studio key from
 * another's resources. A record lives as long as its resource: it is replaced when the
 * upstream hands the name out again, ends at the resource's expiry (and is swept), and is
 * dropped on delete or when the upstream says the name is gone.
 * lib/server/persistence/ownership.ts turns a missing record into the service's 403.
 */

export type OwnedKind = "file" | "cachedContent" | "batch" | "fileSearchStore" | "interaction";

export interface OwnedLifetime {
  /** When the resource expires upstream (epoch ms); null when unknown (kept until deleted). */
  expiresAt: number | null;
  /** What the resource holds, for quotas (a cache's input as sent). */
  sizeBytes?: number;
  /**
   * A file's: every resource its JSONL lines name (`kind:name`), read as it was uploaded;
   * absent when it was not read (migration 17).
   */
  mentions?: string[];
}

/** A record is live until its expiry. */
const LIVE = "(expires_at IS NULL OR expires_at > ?)";

/**
 * How long a quota reservation holds its place while its create is upstream; one left behind
 * by a process that died mid-create frees its place after this.
 */
export const RESERVATION_MS = 10 * 60_000;
/** Reservations are records under names no upstream resource has. */
const RESERVATION_PREFIX = "reserved/";

export class OwnershipStore {
  constructor(
    private readonly database: SqlDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Records that `ownerId` created `name`, replacing any earlier record of the name: the
   * upstream hands a name out again only once the resource it named is gone, so the newest
   * creator is its owner. Records of resources expired by now are dropped on the way.
   */
  async record(
    kind: OwnedKind,
    name: string,
    ownerId: string,
    lifetime: OwnedLifetime = { expiresAt: null },
  ): Promise<void> {
    const now = this.now();
    await this.sweep(now);
    await this.database.run(
      `INSERT INTO resource_owners (kind, name, owner_id, created_at, expires_at, size_bytes, mentions_json) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, name) DO UPDATE SET owner_id = excluded.owner_id, created_at = excluded.created_at,
         expires_at = excluded.expires_at, size_bytes = excluded.size_bytes, mentions_json = excluded.mentions_json`,
      [
        kind,
        name,
        ownerId,
        now,
        lifetime.expiresAt,
        lifetime.sizeBytes ?? 0,
        lifetime.mentions ? JSON.stringify(lifetime.mentions) : null,
      ],
    );
  }

  /** Moves a resource's expiry (a cache given a new ttl or expireTime). */
  async setExpiry(kind: OwnedKind, name: string, expiresAt: number | null): Promise<void> {
    await this.database.run(
      "UPDATE resource_owners SET expires_at = ? WHERE kind = ? AND name = ?",
      [expiresAt, kind, name],
    );
  }

  async ownerOf(kind: OwnedKind, name: string): Promise<string | null> {
    const row = await this.database.get<{ owner_id: string }>(
      `SELECT owner_id FROM resource_owners WHERE kind = ? AND name = ? AND ${LIVE}`,
      [kind, name, this.now()],
    );
    return row?.owner_id ?? null;
  }

  /** The owners of several live resources in one query, keyed `kind:name`; others are absent. */
  async ownersOf(resources: { kind: OwnedKind; name: string }[]): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    if (resources.length === 0) return owners;
    const unique = [
      ...new Map(resources.map((item) => [`${item.kind}:${item.name}`, item])).values(),
    ];
    const rows = await this.database.all<{ kind: string; name: string; owner_id: string }>(
      `SELECT kind, name, owner_id FROM resource_owners WHERE ${LIVE} AND (${unique.map(() => "(kind = ? AND name = ?)").join(" OR ")})`,
      [this.now(), ...unique.flatMap((item) => [item.kind, item.name])],
    );
    for (const row of rows) owners.set(`${row.kind}:${row.name}`, row.owner_id);
    return owners;
  }

  /**
   * What a live file of `ownerId`'s names (`kind:name` each), as read when it was uploaded;
   * null when it is not theirs or was not read.
   */
  async mentionsOf(kind: OwnedKind, name: string, ownerId: string): Promise<string[] | null> {
    const row = await this.database.get<{ mentions_json: string | null }>(
      `SELECT mentions_json FROM resource_owners WHERE kind = ? AND name = ? AND owner_id = ? AND ${LIVE}`,
      [kind, name, ownerId, this.now()],
    );
    return row?.mentions_json ? (JSON.parse(row.mentions_json) as string[]) : null;
  }

  async owns(kind: OwnedKind, name: string, ownerId: string): Promise<boolean> {
    return (await this.ownerOf(kind, name)) === ownerId;
  }

  /**
   * How many live resources of `kind` `ownerId` holds, and their recorded bytes (places
   * reserved for creates under way included).
   */
  async usage(
    kind: OwnedKind,
    ownerId: string,
    executor: SqlExecutor = this.database,
  ): Promise<QuotaUsage> {
    const row = await executor.get<{ count: number; bytes: number | null }>(
      `SELECT COUNT(*) AS count, SUM(size_bytes) AS bytes FROM resource_owners WHERE kind = ? AND owner_id = ? AND ${LIVE}`,
      [kind, ownerId, this.now()],
    );
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  /**
   * Reserves a place of `sizeBytes` in the owner's quota of `kind` before a create goes
   * upstream: counted and recorded in one transaction, serialised per owner on every
   * instance, so concurrent creates cannot all pass the quota. Answers the reservation's
   * name, for settle() once the create is done or forget() when it failed.
   */
  async reserve(
    kind: OwnedKind,
    ownerId: string,
    sizeBytes: number,
    admission: QuotaAdmission,
  ): Promise<string> {
    const name = `${RESERVATION_PREFIX}${randomBytes(12).toString("base64url")}`;
    const now = this.now();
    await this.database.transaction(async (transaction) => {
      await admitWithinQuota(
        transaction,
        kind,
        ownerId,
        () => this.usage(kind, ownerId, transaction),
        admission,
      );
      await transaction.run(
        "INSERT INTO resource_owners (kind, name, owner_id, created_at, expires_at, size_bytes) VALUES (?, ?, ?, ?, ?, ?)",
        [kind, name, ownerId, now, now + RESERVATION_MS, sizeBytes],
      );
    });
    return name;
  }

  /** Turns a reservation into the record of what was created, in one transaction. */
  async settle(
    kind: OwnedKind,
    reservation: string,
    name: string,
    ownerId: string,
    lifetime: OwnedLifetime,
  ): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await transaction.run("DELETE FROM resource_owners WHERE kind = ? AND name = ?", [
        kind,
        reservation,
      ]);
      await transaction.run(
        `INSERT INTO resource_owners (kind, name, owner_id, created_at, expires_at, size_bytes) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind, name) DO UPDATE SET owner_id = excluded.owner_id, created_at = excluded.created_at,
           expires_at = excluded.expires_at, size_bytes = excluded.size_bytes`,
        [kind, name, ownerId, this.now(), lifetime.expiresAt, lifetime.sizeBytes ?? 0],
      );
    });
  }

  async forget(kind: OwnedKind, name: string): Promise<void> {
    await this.database.run("DELETE FROM resource_owners WHERE kind = ? AND name = ?", [
      kind,
      name,
    ]);
  }

  /** Drops the records of resources that have expired by `now`; answers how many. */
  async sweep(now = this.now()): Promise<number> {
    return (
      await this.database.run(
        "DELETE FROM resource_owners WHERE expires_at IS NOT NULL AND expires_at <= ?",
        [now],
      )
    ).changes;
  }
}
