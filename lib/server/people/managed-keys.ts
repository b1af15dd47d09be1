import "server-only";
import { MAX_KEYS_PER_WORKSPACE } from "@/lib/db/stores/api-key-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import { limitsBeyondAllowance, spendPeriods, type KeyLimits } from "@/lib/studio/key-limits";
import { personOwnerId, type ApiKeyView, type CreatedApiKey } from "@/lib/studio/people";
import { dataStores } from "../persistence/database-handle";
import { forgetIdentities, keyHashingSecret, personById } from "../auth/identity-cache";
import { hashKeySecret, keyDisplayPrefix, newKeySecret } from "../auth/key-secrets";
import { keyView } from "./views";

/**
 * The keys of a workspace, as its browser session manages them: made (the secret answered
 * once), named, limited within the person's allowance, revoked. Keys are managed only from a
 * signed-in browser (a key cannot make or change keys), in the caller's workspace: an admin
 * who switched to another's may see, limit and revoke its keys, but makes keys only in their
 * own.
 */

function assertBrowser(caller: Caller): void {
  if (caller.key)
    throw ApiError.permissionDenied(
      "API keys are managed from a signed-in browser, not with a key.",
    );
}

async function assertWithinAllowance(personId: string | null, limits: KeyLimits): Promise<void> {
  const person = personId === null ? null : await personById(personId);
  const problems = limitsBeyondAllowance(limits, person?.allowance ?? null);
  if (problems.length > 0) {
    throw ApiError.invalidArgument(
      `The key's limits go beyond what an admin allows:\n${problems.map((problem) => `* ${problem}`).join("\n")}`,
      problems.map((problem) => ({
        field: `limits.${problem.slice(0, problem.indexOf(":"))}`,
        description: problem,
      })),
    );
  }
}

export async function listKeys(caller: Caller): Promise<ApiKeyView[]> {
  assertBrowser(caller);
  const { apiKeys, limits } = await dataStores();
  const keys = await apiKeys.list(caller.ownerId);
  const { day, month } = spendPeriods(Date.now());
  const spend = await limits.readSpend(
    keys.map((key) => key.id),
    day,
    month,
  );
  return keys.map((key) => keyView(key, spend.get(key.id)));
}

export async function createKey(
  caller: Caller,
  input: { name: string; limits?: KeyLimits },
): Promise<CreatedApiKey> {
  assertBrowser(caller);
  if (caller.ownerId.startsWith("key:"))
    throw ApiError.permissionDenied("The workspace of a STUDIO_API_KEYS key holds no other keys.");
  if (caller.person && caller.ownerId !== personOwnerId(caller.person.id))
    throw ApiError.permissionDenied(
      "Keys are made in your own workspace: switch back to it first.",
    );
  const limits = input.limits ?? {};
  const personId = caller.person?.id ?? null;
  await assertWithinAllowance(personId, limits);
  const secret = newKeySecret();
  const created = await (
    await dataStores()
  ).apiKeys.create({
    ownerId: caller.ownerId,
    personId,
    name: input.name,
    prefix: keyDisplayPrefix(secret),
    secretHash: hashKeySecret(secret, await keyHashingSecret()),
    limits,
  });
  if (created === null) {
    throw ApiError.quotaExceeded(
      {
        quotaMetric: "genstudio/api_keys",
        quotaId: "ApiKeysPerWorkspace",
        quotaValue: String(MAX_KEYS_PER_WORKSPACE),
      },
      "Revoke a key you no longer use to make another.",
    );
  }
  forgetIdentities();
  return { key: keyView(created, undefined), secret };
}

function noKey(id: string): ApiError {
  return ApiError.notFound(`There is no live API key ${id.slice(0, 64)} in this workspace.`);
}

export async function updateKey(
  caller: Caller,
  id: string,
  changes: { name?: string; limits?: KeyLimits },
): Promise<ApiKeyView> {
  assertBrowser(caller);
  const { apiKeys } = await dataStores();
  const key = await apiKeys.get(caller.ownerId, id);
  if (key === null || key.revokedAt !== null) throw noKey(id);
  if (changes.limits) await assertWithinAllowance(key.personId, changes.limits);
  const updated = await apiKeys.update(caller.ownerId, id, changes);
  if (updated === null) throw noKey(id);
  forgetIdentities();
  const [view] = await listViews(caller.ownerId, [updated.id]);
  return view!;
}

async function listViews(ownerId: string, ids: string[]): Promise<ApiKeyView[]> {
  const { apiKeys, limits } = await dataStores();
  const { day, month } = spendPeriods(Date.now());
  const spend = await limits.readSpend(ids, day, month);
  const keys = await Promise.all(ids.map((id) => apiKeys.get(ownerId, id)));
  return keys.flatMap((key) => (key ? [keyView(key, spend.get(key.id))] : []));
}

export async function revokeKey(caller: Caller, id: string): Promise<void> {
  assertBrowser(caller);
  if (!(await (await dataStores()).apiKeys.revoke(caller.ownerId, id))) throw noKey(id);
  forgetIdentities();
}
