import type { SqlDatabase } from "../sql-database";

/**
 * Who created which file, cached content and batch through the gateway (migration 4). The upstream
 * sees one project (the server's key); these records keep one studio key from another's
 * resources. lib/server/persistence/ownership.ts turns a missing record into the service's 403.
 */

export type OwnedKind = "file" | "cachedContent" | "batch";

/** Files live 48 hours upstream; a record older than that (plus slack) names nothing. */
const FILE_RECORD_LIFETIME_MS = 49 * 3_600_000;

export class OwnershipStore {
  constructor(
    private readonly database: SqlDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that `ownerId` created `name`; idempotent. Forgets files that have expired by now. */
  async record(kind: OwnedKind, name: string, ownerId: string): Promise<void> {
    const now = this.now();
    await this.database.run("DELETE FROM resource_owners WHERE kind = 'file' AND created_at < ?", [
      now - FILE_RECORD_LIFETIME_MS,
    ]);
    await this.database.run(
      "INSERT INTO resource_owners (kind, name, owner_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, name) DO NOTHING",
      [kind, name, ownerId, now],
    );
  }

  async ownerOf(kind: OwnedKind, name: string): Promise<string | null> {
    const row = await this.database.get<{ owner_id: string }>(
      "SELECT owner_id FROM resource_owners WHERE kind = ? AND name = ?",
      [kind, name],
    );
    return row?.owner_id ?? null;
  }

  /** The owners of several resources in one query, keyed `kind:name`; unrecorded ones are absent. */
  async ownersOf(resources: { kind: OwnedKind; name: string }[]): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    if (resources.length === 0) return owners;
    const unique = [
      ...new Map(resources.map((item) => [`${item.kind}:${item.name}`, item])).values(),
    ];
    const rows = await this.database.all<{ kind: string; name: string; owner_id: string }>(
      `SELECT kind, name, owner_id FROM resource_owners WHERE ${unique.map(() => "(kind = ? AND name = ?)").join(" OR ")}`,
      unique.flatMap((item) => [item.kind, item.name]),
    );
    for (const row of rows) owners.set(`${row.kind}:${row.name}`, row.owner_id);
    return owners;
  }

  async owns(kind: OwnedKind, name: string, ownerId: string): Promise<boolean> {
    return (await this.ownerOf(kind, name)) === ownerId;
  }

  async forget(kind: OwnedKind, name: string): Promise<void> {
    await this.database.run("DELETE FROM resource_owners WHERE kind = ? AND name = ?", [
      kind,
      name,
    ]);
  }
}
