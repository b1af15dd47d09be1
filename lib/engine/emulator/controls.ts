/**
 * Each caller's control of the engine's state and time: a clock offset (every time the engine
 * reads for that caller, so TTLs and the 48 h of files can run out without waiting), how long
 * uploaded files of a type stay PROCESSING or that they end FAILED with a given error, and
 * quotas of the service's kind (requests a minute or a day, input tokens a minute, per model)
 * answered with the service's RESOURCE_EXHAUSTED and QuotaFailure. In this process's memory.
 */
import { z } from "zod";
import { ApiError } from "@/lib/gemini/api-error";
import { formatTimestampDigits } from "@/lib/gemini/wire-time";
import type { ProcessingPlan } from "@/lib/engine/files/file-processor";
import { currentExchange } from "./exchange-scope";
import { invalidFields, fieldPath } from "./scenario-schema";

const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600;

const processingRuleSchema = z
  .strictObject({
    /** `video/mp4`, `video/*` or `*`. */
    mimeType: z
      .string()
      .regex(
        /^(?:\*|[\w.+-]+\/(?:\*|[\w.+-]+))$/,
        'is not a MIME type like "video/mp4" or "video/*"',
      ),
    /** Seconds a file of the type stays PROCESSING after its upload. */
    processingSeconds: z.number().min(0).max(3600).optional(),
    /** The file ends FAILED with this error instead of ACTIVE. */
    fail: z
      .strictObject({
        message: z.string().min(1).max(2000),
        /** A google.rpc code number (default 3, INVALID_ARGUMENT). */
        code: z.number().int().min(1).max(16).optional(),
      })
      .optional(),
  })
  .refine((rule) => rule.processingSeconds !== undefined || rule.fail !== undefined, {
    message: "says neither processingSeconds nor fail",
  });

const limit = z.number().int().min(1).max(1_000_000_000);

export const controlsSchema = z.strictObject({
  /** Seconds the caller's clock runs ahead of (or, negative, behind) the real one. */
  clockOffsetSeconds: z.number().int().min(-TEN_YEARS_SECONDS).max(TEN_YEARS_SECONDS).optional(),
  /** The first rule whose type fits a file applies. */
  fileProcessing: z.array(processingRuleSchema).max(100).optional(),
  /**
   * Requests without a seed of their own are sampled with one made from the request, as at
   * temperature 0: the same request answers the same (for tests that compare whole answers).
   */
  repeatableSampling: z.boolean().optional(),
  /** Per model, for generation (generateContent, streamGenerateContent). */
  quotas: z
    .strictObject({
      requestsPerMinute: limit.optional(),
      requestsPerDay: limit.optional(),
      inputTokensPerMinute: limit.optional(),
    })
    .optional(),
});

export type Controls = z.infer<typeof controlsSchema>;
export type ProcessingRule = z.infer<typeof processingRuleSchema>;

interface QuotaWindow {
  start: number;
  used: number;
}

/** One caller's quota use: windows per model and metric. */
type QuotaUse = Map<string, QuotaWindow>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export class EmulatorControls {
  private readonly controls = new Map<string, Controls>();
  private readonly quotaUse = new Map<string, QuotaUse>();

  /** The engine's clock: real time plus the offset of the caller being served, if any. */
  readonly now = (): number => {
    const ownerId = currentExchange()?.ownerId;
    return Date.now() + (ownerId ? this.offsetMs(ownerId) : 0);
  };

  offsetMs(ownerId: string): number {
    return (this.controls.get(ownerId)?.clockOffsetSeconds ?? 0) * 1000;
  }

  /** The caller's controls and the time on its clock. */
  view(ownerId: string): Controls & { now: string } {
    return {
      ...(this.controls.get(ownerId) ?? {}),
      now: formatTimestampDigits(Date.now() + this.offsetMs(ownerId), 3),
    };
  }

  /** Replaces the caller's controls (a problem is a 400 naming the field; nothing changes). */
  set(ownerId: string, input: unknown): Controls & { now: string } {
    const parsed = controlsSchema.safeParse(input);
    if (!parsed.success) {
      throw invalidFields(
        parsed.error.issues.map((issue) => ({
          field: fieldPath(issue.path),
          description: issue.message,
        })),
        "The emulator controls are not valid",
      );
    }
    this.controls.set(ownerId, parsed.data);
    this.quotaUse.delete(ownerId);
    return this.view(ownerId);
  }

  reset(ownerId: string): void {
    this.controls.delete(ownerId);
    this.quotaUse.delete(ownerId);
  }

  /** How a newly uploaded file of `ownerId`'s of type `mimeType` is processed, if a rule says. */
  processingPlan(file: { ownerId: string; mimeType: string }): ProcessingPlan | undefined {
    const rules = this.controls.get(file.ownerId)?.fileProcessing;
    const rule = rules?.find((candidate) => typeFits(candidate.mimeType, file.mimeType));
    if (!rule) return undefined;
    return {
      delayMs: Math.round((rule.processingSeconds ?? 0) * 1000),
      ...(rule.fail ? { fail: { code: rule.fail.code ?? 3, message: rule.fail.message } } : {}),
    };
  }

  /** Whether the caller's requests without a seed are sampled repeatably. */
  samplesRepeatably(ownerId: string): boolean {
    return this.controls.get(ownerId)?.repeatableSampling === true;
  }

  /** Whether the caller has quotas at all (else nothing of a request need be read for them). */
  hasQuotas(ownerId: string): boolean {
    return this.controls.get(ownerId)?.quotas !== undefined;
  }

  /** Whether the caller has token quotas (then the prompt must be counted before the call). */
  countsInputTokens(ownerId: string): boolean {
    return this.controls.get(ownerId)?.quotas?.inputTokensPerMinute !== undefined;
  }

  /**
   * Counts one generation request against the caller's quotas for `model`, or throws the
   * service's 429 when one is used up (the request is then not counted). `inputTokens` is the
   * prompt's count when the caller has a token quota.
   */
  chargeQuota(ownerId: string, model: string, inputTokens = 0): void {
    const quotas = this.controls.get(ownerId)?.quotas;
    if (!quotas) return;
    let use = this.quotaUse.get(ownerId);
    if (!use) this.quotaUse.set(ownerId, (use = new Map()));
    const now = Date.now() + this.offsetMs(ownerId);
    const checks = [
      { limit: quotas.requestsPerMinute, span: MINUTE, amount: 1, kind: "requests-minute" },
      { limit: quotas.requestsPerDay, span: DAY, amount: 1, kind: "requests-day" },
      {
        limit: quotas.inputTokensPerMinute,
        span: MINUTE,
        amount: inputTokens,
        kind: "tokens-minute",
      },
    ] as const;
    const windows: Array<{ window: QuotaWindow; amount: number }> = [];
    for (const check of checks) {
      if (check.limit === undefined) continue;
      const key = `${model}\n${check.kind}`;
      const start = Math.floor(now / check.span) * check.span;
      let window = use.get(key);
      if (!window || window.start !== start) use.set(key, (window = { start, used: 0 }));
      if (window.used + check.amount > check.limit)
        throw quotaExceeded(check.kind, check.limit, model, start + check.span - now);
      windows.push({ window, amount: check.amount });
    }
    for (const { window, amount } of windows) window.used += amount;
  }
}

function typeFits(pattern: string, mimeType: string): boolean {
  if (pattern === "*") return true;
  const type = mimeType.toLowerCase().split(";")[0]!.trim();
  const wanted = pattern.toLowerCase();
  return wanted.endsWith("/*") ? type.startsWith(wanted.slice(0, -1)) : type === wanted;
}

const QUOTA_NAMES = {
  "requests-minute": {
    metric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
    id: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
  },
  "requests-day": {
    metric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
    id: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
  },
  "tokens-minute": {
    metric: "generativelanguage.googleapis.com/generate_content_free_tier_input_token_count",
    id: "GenerateContentInputTokensPerModelPerMinute-FreeTier",
  },
} as const;

const RATE_LIMITS_URL = "https://ai.google.dev/gemini-api/docs/rate-limits";

/** The service's free-tier quota answer: its message, a QuotaFailure, Help and RetryInfo. */
function quotaExceeded(
  kind: keyof typeof QUOTA_NAMES,
  limit: number,
  model: string,
  retryMs: number,
): ApiError {
  const names = QUOTA_NAMES[kind];
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new ApiError(
    429,
    "RESOURCE_EXHAUSTED",
    `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: ${RATE_LIMITS_URL}.\n* Quota exceeded for metric: ${names.metric}, limit: ${limit}, model: ${model}\nPlease retry in ${seconds}s.`,
    [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [
          {
            quotaMetric: names.metric,
            quotaId: names.id,
            quotaDimensions: { location: "global", model },
            quotaValue: String(limit),
          },
        ],
      },
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        links: [{ description: "Learn more about Gemini API quotas", url: RATE_LIMITS_URL }],
      },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${seconds}s` },
    ],
  );
}

/** The 404 of a resource the caller asks to expire that is not its own. */
export function notTheCallers(kind: string, name: string): ApiError {
  return ApiError.notFound(`${kind} ${name.slice(0, 120)} does not exist (or is not yours).`);
}
