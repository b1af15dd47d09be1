/**
 * What an answer costs: a price table (US dollars per million tokens, per model) and the cost
 * of one answer's usage. The defaults are the service's published paid-tier prices for text
 * (2.5's cached tokens at a tenth of the input price, as the pricing page has listed them since
 * late 2025, where they had been a quarter); a studio replaces or extends them with the JSON file named by STUDIO_PRICES_FILE (README,
 * "Prices"). Safe in the browser.
 */
import { z } from "zod";
import type { UsageMetadata } from "@/lib/gemini/types";

const rate = z.number().min(0).max(1_000_000);

export const modelPriceSchema = z.strictObject({
  /** Dollars per million prompt tokens (cached tokens excluded). */
  input: rate,
  /** Dollars per million output tokens, thoughts included (they are billed as output). */
  output: rate,
  /** Dollars per million cached prompt tokens; the input price when absent. */
  cachedInput: rate.optional(),
  /** Prompts longer than this many tokens are billed at the long-context prices. */
  longContextThreshold: z.number().int().positive().optional(),
  longInput: rate.optional(),
  longOutput: rate.optional(),
  longCachedInput: rate.optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const priceTableSchema = z.strictObject({
  currency: z.string().regex(/^[A-Z]{3}$/, "currency must be an ISO 4217 code such as USD"),
  /** By model id (`gemini-2.5-flash`); an id also prices the ids that start with it and a dash. */
  models: z.record(z.string().min(1).max(200), modelPriceSchema),
});
export type PriceTable = z.infer<typeof priceTableSchema>;

export const DEFAULT_PRICE_TABLE: PriceTable = {
  currency: "USD",
  models: {
    "gemini-2.5-pro": {
      input: 1.25,
      output: 10,
      cachedInput: 0.125,
      longContextThreshold: 200_000,
      longInput: 2.5,
      longOutput: 15,
      longCachedInput: 0.25,
    },
    "gemini-2.5-flash": { input: 0.3, output: 2.5, cachedInput: 0.03 },
    "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cachedInput: 0.01 },
    "gemini-2.5-flash-preview-tts": { input: 0.5, output: 10 },
    "gemini-2.0-flash": { input: 0.1, output: 0.4, cachedInput: 0.025 },
    "gemini-2.0-flash-lite": { input: 0.075, output: 0.3 },
    "gemini-1.5-flash": {
      input: 0.075,
      output: 0.3,
      cachedInput: 0.01875,
      longContextThreshold: 128_000,
      longInput: 0.15,
      longOutput: 0.6,
      longCachedInput: 0.0375,
    },
  },
};

/** The table's price of a model: its own id, else the longest id it extends (`x-001` → `x`). */
export function priceOf(model: string, table: PriceTable): ModelPrice | null {
  const id = model.replace(/^models\//, "");
  let best: string | null = null;
  for (const name of Object.keys(table.models)) {
    if ((id === name || id.startsWith(`${name}-`)) && (best === null || name.length > best.length))
      best = name;
  }
  return best === null ? null : table.models[best]!;
}

export interface AnswerCost {
  amount: number;
  currency: string;
}

/** The cost of one answer's usage, or null when the model has no price. */
export function answerCost(
  usage: UsageMetadata | undefined,
  model: string,
  table: PriceTable,
): AnswerCost | null {
  const price = priceOf(model, table);
  if (!price || !usage) return null;
  const prompt = usage.promptTokenCount ?? 0;
  const cached = Math.min(prompt, usage.cachedContentTokenCount ?? 0);
  const output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  const long = price.longContextThreshold !== undefined && prompt > price.longContextThreshold;
  const input = long ? (price.longInput ?? price.input) : price.input;
  const cachedInput = long
    ? (price.longCachedInput ?? price.cachedInput ?? input)
    : (price.cachedInput ?? input);
  const outputRate = long ? (price.longOutput ?? price.output) : price.output;
  const amount = ((prompt - cached) * input + cached * cachedInput + output * outputRate) / 1e6;
  return { amount, currency: table.currency };
}

/** A cost as people read it: small amounts keep their significant digits ($0.000123). */
export function formatCost(cost: AnswerCost): string {
  const digits = cost.amount >= 0.01 || cost.amount === 0 ? 2 : 6;
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency: cost.currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(cost.amount);
}
