import type { SqlTransaction } from "../sql-database";

/**
 * An owner's usage of a quota as a write finds it: how many of the resource and their bytes.
 */
export interface QuotaUsage {
  count: number;
  bytes: number;
}

/**
 * A write admitted only while the owner's usage leaves room for it. The store reads the usage
 * inside the write's own transaction, serialised per owner and quota on every instance, and
 * calls `admit` before writing: a check made before the transaction would let concurrent
 * writes all pass it.
 */
export interface QuotaAdmission {
  /** Throws (the service's 429) when `usage` leaves no room for this write. */
  admit(usage: QuotaUsage): void;
}

/**
 * Serialises the transaction with every other write to the owner's `quota`, then admits the
 * write against the usage `measure` reads in it (or throws, and nothing is written).
 */
export async function admitWithinQuota(
  transaction: SqlTransaction,
  quota: string,
  ownerId: string,
  measure: () => Promise<QuotaUsage>,
  admission: QuotaAdmission | undefined,
): Promise<void> {
  if (!admission) return;
  await transaction.serialize(`quota:${quota}:${ownerId}`);
  admission.admit(await measure());
}
