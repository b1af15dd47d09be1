import "server-only";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { CacheQuota } from "@/lib/gemini/backend/quotas";
import { DEFAULT_PRICE_TABLE, priceTableSchema, type PriceTable } from "@/lib/studio/price-table";
import { isLoopbackHost } from "./loopback";
import { parseTrustedProxies } from "./client-address";
import { parseForwardRules, type ForwardRule } from "./forward-methods";

/**
 * Server configuration, parsed and validated once from the environment. Nothing here is
 * ever taken from a request. Secrets stay in this module's result and never reach a
 * response, a log line or the client bundle.
 */

const DEVELOPMENT_KEY = "genstudio-dev-key";

const envSchema = z.object({
  GEMINI_API_KEY: z.string().trim().min(1).optional(),
  GOOGLE_API_KEY: z.string().trim().min(1).optional(),
  GEMINI_BASE_URL: z.url().default("https://generativelanguage.googleapis.com"),
  STUDIO_ACCESS_CODE: z
    .string()
    .min(12, "the access code must be at least 12 characters long")
    .optional(),
  STUDIO_API_KEYS: z.string().trim().min(1).optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(?:ql)?:\/\//, "must be a postgres:// (or postgresql://) URL")
    .optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOSTNAME: z.string().min(1).default("127.0.0.1"),
  STUDIO_SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 30),
  UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  UPSTREAM_IDLE_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  UPSTREAM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  UPSTREAM_RETRY_BASE_DELAY_MS: z.coerce.number().int().min(0).default(500),
  UPSTREAM_RETRY_MAX_DELAY_MS: z.coerce.number().int().min(0).default(20_000),
  STUDIO_RATE_LIMIT_PER_MINUTE: z.coerce.number().min(0).default(600),
  STUDIO_RATE_LIMIT_BURST: z.coerce.number().int().min(0).optional(),
  STUDIO_MAX_STREAMS_PER_KEY: z.coerce.number().int().min(0).default(16),
  /**
   * Cached contents each owner may hold at once, and the bytes of their cached input as sent
   * (lib/gemini/backend/quotas.ts says why bytes); 0 turns a quota off. The service sets no
   * longest TTL, so none is imposed: a long-lived cache counts against these until it ends.
   */
  STUDIO_CACHE_QUOTA_COUNT: z.coerce.number().int().min(0).default(1000),
  STUDIO_CACHE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(2 * 1024 * 1024 * 1024),
  /** Bytes of conversations (titles, settings, messages as stored) each owner may keep; 0 turns it off. */
  STUDIO_CONVERSATION_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  /** Wrong sign-in answers per account and client address and minute (lib/server/auth/sign-in-throttle.ts). */
  STUDIO_SIGN_IN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(0).default(10),
  /** Local engine: bytes of files (plus open uploads) each key or the studio may hold. */
  STUDIO_FILE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024 * 1024),
  /** Local engine: output tokens a second its streams send at most (0: as fast as generated). */
  STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND: z.coerce.number().min(0).default(0),
  /** JSON price table (README, "Prices") merged over the defaults. */
  STUDIO_PRICES_FILE: z.string().min(1).optional(),
  /** Reverse proxies (CIDRs) whose X-Forwarded-For names the client's address. */
  STUDIO_TRUSTED_PROXIES: z.string().optional(),
  /** People mode: the first admin, made at start when no person has this email. */
  STUDIO_ADMIN_EMAIL: z
    .string()
    .trim()
    .regex(/^[^\s@]+@[^\s@]+$/, "must be an email address")
    .optional(),
  STUDIO_ADMIN_PASSWORD: z
    .string()
    .min(12, "the admin password must be at least 12 characters long")
    .optional(),
  /** Hours an invitation or password reset link stays usable. */
  STUDIO_INVITATION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(72),
  /** Sign-in through an OpenID Connect provider (people mode). */
  STUDIO_OIDC_ISSUER: z.url().optional(),
  STUDIO_OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  STUDIO_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  STUDIO_OIDC_NAME: z.string().trim().min(1).max(60).optional(),
  /** Email domains whose verified addresses get an account at their first sign-in through the provider. */
  STUDIO_OIDC_ALLOWED_DOMAINS: z.string().optional(),
  /** The studio's address as people reach it (`https://studio.example.com`): the provider returns there. */
  STUDIO_PUBLIC_URL: z.url().optional(),
  /** Methods the gateway does not know that it forwards anyway (forward-methods.ts). */
  GATEWAY_FORWARD_METHODS: z.string().optional(),
});

export interface StudioKey {
  name: string;
  key: string;
}

/** How the gateway talks to the upstream: where, with which key, and how patiently. */
export interface UpstreamSettings {
  apiKey: string;
  baseUrl: string;
  connectTimeoutMs: number;
  /** From the request fully sent to the response headers. */
  firstByteTimeoutMs: number;
  /** Longest silence between two chunks of a response body. */
  idleTimeoutMs: number;
  /** Attempts per retryable operation, the first included (1 = never retry). */
  maxAttempts: number;
  retryBaseDelayMs: number;
  /** Longest wait before a retry; an upstream RetryInfo asking for more is passed to the client instead. */
  retryMaxDelayMs: number;
}

/** Per-caller limits; 0 turns a limit off. */
export interface LimitSettings {
  requestsPerMinute: number;
  burst: number;
  maxStreamsPerKey: number;
  /** Wrong sign-in answers per account and client address and minute; 0 turns the sign-in throttle off. */
  signInAttemptsPerMinute: number;
}

/** Sign-in through an OpenID Connect provider (authorization code flow with PKCE). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Null: a public client (PKCE alone). */
  clientSecret: string | null;
  /** The provider's name on the sign-in button. */
  name: string;
  /** Verified emails of these domains get an account at first sign-in; others must be invited. */
  allowedDomains: string[];
}

/** People mode: accounts with their own sign-in and workspace. */
export interface PeopleSettings {
  adminEmail: string;
  /** Null when the first admin signs in through the provider. */
  adminPassword: string | null;
  oidc: OidcSettings | null;
  /** How long an invitation or password reset link stays usable. */
  linkTtlMs: number;
}

export interface ServerEnv {
  mode: "local" | "upstream";
  /** People mode (STUDIO_ADMIN_EMAIL); null: the single-person modes (access code, development default). */
  people: PeopleSettings | null;
  /** Reverse proxies whose X-Forwarded-For is believed (CIDRs). */
  trustedProxies: string[];
  /** Where people reach the studio, when configured (`https://host`); else each request's origin. */
  publicUrl: string | null;
  upstream: UpstreamSettings | null;
  limits: LimitSettings;
  studioKeys: StudioKey[];
  accessCode: string | null;
  /** True on loopback with no credentials configured: the documented development default. */
  developmentDefaults: boolean;
  /** File bytes of the local engine (and the SQLite file without `databaseUrl`); several instances mount one. */
  dataDir: string;
  /** `postgres://…`: every piece of state in PostgreSQL. Null: SQLite under `dataDir`. */
  databaseUrl: string | null;
  port: number;
  hostname: string;
  sessionTtlMs: number;
  /** Per-owner file storage of the local engine, in bytes. */
  fileQuotaBytes: number;
  /** The local engine's stream speed in output tokens a second; 0: as fast as generated. */
  localOutputTokensPerSecond: number;
  /** Per-owner quotas (both modes); 0 turns one off. */
  quotas: Quotas;
  /** Prices the studio shows per answer: the defaults with STUDIO_PRICES_FILE's models over them. */
  prices: PriceTable;
  /** Methods the gateway does not know that the operator lets it forward (GATEWAY_FORWARD_METHODS). */
  forwardRules: ForwardRule[];
}

/** What each owner may keep, beyond files; 0 turns a quota off. */
export interface Quotas {
  /** Live cached contents and the bytes of their cached input. */
  cache: CacheQuota;
  /** Bytes of the owner's conversations (titles, settings and messages as stored). */
  conversationBytes: number;
}

export class ConfigurationError extends Error {}

/** Parses `NAME:key,NAME:key` or bare `key,key` (named key-1, key-2, ...). */
function parseStudioKeys(value: string | undefined): StudioKey[] {
  if (!value) return [];
  return value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => {
      const separator = item.indexOf(":");
      if (separator <= 0) return { name: `key-${index + 1}`, key: item };
      return { name: item.slice(0, separator), key: item.slice(separator + 1) };
    });
}

/** The default price table with the configured file's currency and models over it. */
function readPriceTable(file: string | undefined): PriceTable {
  if (!file) return DEFAULT_PRICE_TABLE;
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigurationError(
      `STUDIO_PRICES_FILE: cannot read ${file} as JSON (${(error as Error).message}).`,
    );
  }
  const parsed = priceTableSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`)
      .join("; ");
    throw new ConfigurationError(`STUDIO_PRICES_FILE ${file}: ${problems}`);
  }
  return {
    currency: parsed.data.currency,
    models: { ...DEFAULT_PRICE_TABLE.models, ...parsed.data.models },
  };
}

function readPeopleSettings(values: z.infer<typeof envSchema>): PeopleSettings | null {
  const oidcValues = [values.STUDIO_OIDC_ISSUER, values.STUDIO_OIDC_CLIENT_ID];
  const oidc: OidcSettings | null =
    values.STUDIO_OIDC_ISSUER && values.STUDIO_OIDC_CLIENT_ID
      ? {
          issuer: values.STUDIO_OIDC_ISSUER,
          clientId: values.STUDIO_OIDC_CLIENT_ID,
          clientSecret: values.STUDIO_OIDC_CLIENT_SECRET ?? null,
          name: values.STUDIO_OIDC_NAME ?? "single sign-on",
          allowedDomains: (values.STUDIO_OIDC_ALLOWED_DOMAINS ?? "")
            .split(",")
            .map((domain) => domain.trim().toLowerCase().replace(/^@/, ""))
            .filter(Boolean),
        }
      : null;
  if (oidc === null && oidcValues.some(Boolean)) {
    throw new ConfigurationError(
      "STUDIO_OIDC_ISSUER and STUDIO_OIDC_CLIENT_ID go together: set both to sign in through a provider.",
    );
  }
  if (!values.STUDIO_ADMIN_EMAIL) {
    if (oidc !== null || values.STUDIO_ADMIN_PASSWORD) {
      throw new ConfigurationError(
        "STUDIO_ADMIN_EMAIL is not set: people (and sign-in through a provider) need a first admin.",
      );
    }
    return null;
  }
  if (!values.STUDIO_ADMIN_PASSWORD && oidc === null) {
    throw new ConfigurationError(
      "STUDIO_ADMIN_EMAIL needs STUDIO_ADMIN_PASSWORD (or a provider to sign in through, STUDIO_OIDC_ISSUER).",
    );
  }
  return {
    adminEmail: values.STUDIO_ADMIN_EMAIL.toLowerCase(),
    adminPassword: values.STUDIO_ADMIN_PASSWORD ?? null,
    oidc,
    linkTtlMs: values.STUDIO_INVITATION_TTL_HOURS * 3_600_000,
  };
}

export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
      .join("; ");
    throw new ConfigurationError(`Invalid configuration: ${problems}`);
  }
  const values = parsed.data;
  const upstreamKey = values.GEMINI_API_KEY ?? values.GOOGLE_API_KEY;
  const configuredKeys = parseStudioKeys(values.STUDIO_API_KEYS);
  for (const studioKey of configuredKeys) {
    if (studioKey.key.length < 16) {
      throw new ConfigurationError(
        `STUDIO_API_KEYS: the key named "${studioKey.name}" is shorter than 16 characters.`,
      );
    }
  }
  const accessCode = values.STUDIO_ACCESS_CODE ?? null;
  const people = readPeopleSettings(values);
  if (people !== null && accessCode !== null) {
    throw new ConfigurationError(
      "STUDIO_ACCESS_CODE and STUDIO_ADMIN_EMAIL are two ways of signing in: the access code is the single-person mode (one shared workspace), STUDIO_ADMIN_EMAIL turns on people with their own sign-in and workspace. Set one of them.",
    );
  }
  let trustedProxies: string[];
  try {
    trustedProxies = parseTrustedProxies(values.STUDIO_TRUSTED_PROXIES);
  } catch (error) {
    throw new ConfigurationError(`STUDIO_TRUSTED_PROXIES: ${(error as Error).message}.`);
  }
  const loopback = isLoopbackHost(values.HOSTNAME);
  const credentialsConfigured = configuredKeys.length > 0 || accessCode !== null || people !== null;
  if (!credentialsConfigured && !loopback) {
    throw new ConfigurationError(
      `Refusing to start: HOSTNAME=${values.HOSTNAME} makes the studio reachable from other machines, ` +
        "but none of STUDIO_API_KEYS, STUDIO_ACCESS_CODE and STUDIO_ADMIN_EMAIL is set, so anyone could use it. " +
        "Set at least one of them, or bind to 127.0.0.1.",
    );
  }
  const developmentDefaults = !credentialsConfigured;
  let forwardRules: ForwardRule[];
  try {
    forwardRules = parseForwardRules(values.GATEWAY_FORWARD_METHODS);
  } catch (error) {
    throw new ConfigurationError(`GATEWAY_FORWARD_METHODS: ${(error as Error).message}`);
  }
  return {
    mode: upstreamKey ? "upstream" : "local",
    people,
    trustedProxies,
    publicUrl: values.STUDIO_PUBLIC_URL?.replace(/\/+$/, "") ?? null,
    upstream: upstreamKey
      ? {
          apiKey: upstreamKey,
          baseUrl: values.GEMINI_BASE_URL.replace(/\/+$/, ""),
          connectTimeoutMs: values.UPSTREAM_CONNECT_TIMEOUT_MS,
          firstByteTimeoutMs: values.UPSTREAM_FIRST_BYTE_TIMEOUT_MS,
          idleTimeoutMs: values.UPSTREAM_IDLE_TIMEOUT_MS,
          maxAttempts: values.UPSTREAM_MAX_ATTEMPTS,
          retryBaseDelayMs: values.UPSTREAM_RETRY_BASE_DELAY_MS,
          retryMaxDelayMs: values.UPSTREAM_RETRY_MAX_DELAY_MS,
        }
      : null,
    limits: {
      requestsPerMinute: values.STUDIO_RATE_LIMIT_PER_MINUTE,
      burst:
        values.STUDIO_RATE_LIMIT_BURST ??
        Math.max(1, Math.ceil(values.STUDIO_RATE_LIMIT_PER_MINUTE / 5)),
      maxStreamsPerKey: values.STUDIO_MAX_STREAMS_PER_KEY,
      signInAttemptsPerMinute: values.STUDIO_SIGN_IN_ATTEMPTS_PER_MINUTE,
    },
    studioKeys: developmentDefaults ? [{ name: "dev", key: DEVELOPMENT_KEY }] : configuredKeys,
    accessCode,
    developmentDefaults,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL ?? null,
    port: values.PORT,
    hostname: values.HOSTNAME,
    sessionTtlMs: values.STUDIO_SESSION_TTL_HOURS * 3_600_000,
    fileQuotaBytes: values.STUDIO_FILE_QUOTA_BYTES,
    localOutputTokensPerSecond: values.STUDIO_LOCAL_OUTPUT_TOKENS_PER_SECOND,
    quotas: {
      cache: { count: values.STUDIO_CACHE_QUOTA_COUNT, bytes: values.STUDIO_CACHE_QUOTA_BYTES },
      conversationBytes: values.STUDIO_CONVERSATION_QUOTA_BYTES,
    },
    prices: readPriceTable(values.STUDIO_PRICES_FILE),
    forwardRules,
  };
}

let cached: ServerEnv | undefined;

/** The process's configuration, parsed on first use. */
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
