/**
 * What a studio API key may do: the models it may call, a request rate, and budgets in tokens
 * and in dollars per UTC day and month. A key's owner sets its limits; an admin sets the same
 * shape per person as the most any of that person's keys may have (the allowance). The key
 * is held to both at once (`effectiveLimits`). Shared by the pages and the server.
 */
import { z } from "zod";

const count = (max: number) => z.number().int().min(0).max(max).nullable().optional();
const dollars = z.number().min(0).max(1_000_000_000).nullable().optional();

/** A model id (`gemini-2.5-flash`), or a prefix ending in `*` (`gemini-2.5-*`). */
const modelPattern = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._\-/]+\*?$|^\*$/, "a model id, or a prefix ending in *")
  .transform((pattern) => pattern.replace(/^models\//, ""));

export const keyLimitsSchema = z
  .object({
    /** Null or absent: every model (within the allowance). */
    models: z.array(modelPattern).max(100).nullable().optional(),
    requestsPerMinute: z.number().int().min(1).max(1_000_000).nullable().optional(),
    tokensPerDay: count(1e15),
    tokensPerMonth: count(1e15),
    dollarsPerDay: dollars,
    dollarsPerMonth: dollars,
  })
  .strict();

export type KeyLimits = z.infer<typeof keyLimitsSchema>;

/** The budgets, each with the words its QuotaFailure and the pages use. */
export const BUDGETS = [
  { field: "tokensPerDay", unit: "tokens", period: "day", quotaId: "TokensPerDayPerApiKey" },
  { field: "tokensPerMonth", unit: "tokens", period: "month", quotaId: "TokensPerMonthPerApiKey" },
  { field: "dollarsPerDay", unit: "dollars", period: "day", quotaId: "DollarsPerDayPerApiKey" },
  {
    field: "dollarsPerMonth",
    unit: "dollars",
    period: "month",
    quotaId: "DollarsPerMonthPerApiKey",
  },
] as const;

export type BudgetField = (typeof BUDGETS)[number]["field"];

function matches(pattern: string, model: string): boolean {
  if (pattern === "*") return true;
  return pattern.endsWith("*") ? model.startsWith(pattern.slice(0, -1)) : model === pattern;
}

/** True when `model` (an id or `models/{id}`) is one the patterns allow (null: any). */
export function modelAllowed(
  patterns: readonly string[] | null | undefined,
  model: string,
): boolean {
  if (patterns === null || patterns === undefined) return true;
  const id = model.replace(/^models\//, "");
  return patterns.some((pattern) => matches(pattern, id));
}

function smaller(one: number | null | undefined, other: number | null | undefined): number | null {
  if (one === null || one === undefined) return other ?? null;
  if (other === null || other === undefined) return one;
  return Math.min(one, other);
}

export interface EffectiveLimits {
  /** Every list the model must be in (the key's and the allowance's); empty: any model. */
  modelLists: (readonly string[])[];
  requestsPerMinute: number | null;
  budgets: Record<BudgetField, number | null>;
}

/** The limits a key is held to: its own and its person's allowance, the tighter of each. */
export function effectiveLimits(key: KeyLimits, allowance: KeyLimits | null): EffectiveLimits {
  const modelLists = [key.models, allowance?.models].filter(
    (list): list is string[] => list !== null && list !== undefined,
  );
  const budgets = {} as Record<BudgetField, number | null>;
  for (const budget of BUDGETS)
    budgets[budget.field] = smaller(key[budget.field], allowance?.[budget.field]);
  return {
    modelLists,
    requestsPerMinute: smaller(key.requestsPerMinute, allowance?.requestsPerMinute),
    budgets,
  };
}

/** True when the limits allow `model`. */
export function effectiveModelAllowed(limits: EffectiveLimits, model: string): boolean {
  return limits.modelLists.every((list) => modelAllowed(list, model));
}

/** True when any budget is set (the spend must then be read with each request). */
export function hasBudgets(limits: EffectiveLimits): boolean {
  return BUDGETS.some((budget) => limits.budgets[budget.field] !== null);
}

/**
 * Where a key's limits go beyond the allowance, as `field: reason` (empty when within it). A
 * key may leave a limit unset: the allowance then applies.
 */
export function limitsBeyondAllowance(key: KeyLimits, allowance: KeyLimits | null): string[] {
  if (allowance === null) return [];
  const problems: string[] = [];
  if (allowance.models) {
    const outside = (key.models ?? ["*"]).filter(
      (pattern) => !allowance.models!.some((allowed) => covers(allowed, pattern)),
    );
    if (outside.length > 0)
      problems.push(
        `models: ${outside.join(", ")} beyond the allowed ${allowance.models.join(", ")}`,
      );
  }
  const numeric = ["requestsPerMinute", ...BUDGETS.map((budget) => budget.field)] as const;
  for (const field of numeric) {
    const ceiling = allowance[field];
    const value = key[field];
    if (
      ceiling !== null &&
      ceiling !== undefined &&
      value !== null &&
      value !== undefined &&
      value > ceiling
    )
      problems.push(`${field}: ${value} is more than the allowed ${ceiling}`);
  }
  return problems;
}

/** True when every model `pattern` names is one `allowed` names too. */
function covers(allowed: string, pattern: string): boolean {
  if (allowed === "*") return true;
  if (!allowed.endsWith("*")) return allowed === pattern;
  const prefix = allowed.slice(0, -1);
  return pattern.startsWith(prefix);
}

/** A UTC day ("2025-06-01") and month ("2025-06") of a time: the periods spend is counted in. */
export function spendPeriods(now: number): { day: string; month: string } {
  const day = new Date(now).toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/** Billionths of a dollar: spend is counted in whole numbers of them. */
export const NANODOLLARS_PER_DOLLAR = 1_000_000_000;
