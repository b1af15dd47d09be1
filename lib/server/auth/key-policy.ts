import "server-only";
import type { KeySpend } from "@/lib/db/stores/limit-store";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller } from "@/lib/gemini/backend/contract";
import {
  BUDGETS,
  NANODOLLARS_PER_DOLLAR,
  effectiveModelAllowed,
  type EffectiveLimits,
} from "@/lib/studio/key-limits";

/**
 * What a managed key may do on this request: its limits (its own within its person's
 * allowance) and its spend as read while authenticating. Kept beside the Caller (never in
 * it: backends have no business with it) for the checks of handlers that call a model.
 */
export interface KeyPolicy {
  limits: EffectiveLimits;
  /** The key's spend of today and this month; null when it has no budget. */
  spend: KeySpend | null;
}

const policies = new WeakMap<Caller, KeyPolicy>();

export function attachKeyPolicy(caller: Caller, policy: KeyPolicy): void {
  policies.set(caller, policy);
}

export function keyPolicyOf(caller: Caller): KeyPolicy | undefined {
  return policies.get(caller);
}

function spent(spend: KeySpend, field: (typeof BUDGETS)[number]): number {
  const day = field.period === "day";
  if (field.unit === "tokens") return day ? spend.dayTokens : spend.monthTokens;
  return (day ? spend.dayNanodollars : spend.monthNanodollars) / NANODOLLARS_PER_DOLLAR;
}

function resetTime(period: "day" | "month", now: number): string {
  const date = new Date(now);
  const next =
    period === "day"
      ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
      : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return new Date(next).toISOString();
}

/**
 * Before a request that calls `model`: the service's 403 PERMISSION_DENIED when the caller's
 * key may not call it, and its 429 RESOURCE_EXHAUSTED with a QuotaFailure naming the budget
 * when one is spent. Nothing for browser sessions and keys of STUDIO_API_KEYS.
 */
export function assertKeyMayCall(caller: Caller, model: string, now = Date.now()): void {
  const policy = policies.get(caller);
  if (!policy) return;
  const id = model.replace(/^models\//, "");
  if (!effectiveModelAllowed(policy.limits, id)) {
    throw ApiError.permissionDenied(
      `This API key may not call model ${id.slice(0, 200)}: its owner (or an admin) limited the models it may call.`,
    );
  }
  if (policy.spend === null) return;
  for (const budget of BUDGETS) {
    const limit = policy.limits.budgets[budget.field];
    if (limit === null || spent(policy.spend, budget) < limit) continue;
    throw ApiError.quotaExceeded(
      {
        quotaMetric: `genstudio/api_key/${budget.unit}_per_${budget.period}`,
        quotaId: budget.quotaId,
        quotaValue: String(limit),
      },
      `This API key's budget of ${budget.unit === "dollars" ? `$${limit}` : `${limit} tokens`} per ${budget.period} is spent; it resets at ${resetTime(budget.period, now)}. Its owner can raise it in the studio (Account, API keys).`,
    );
  }
}
