/**
 * cachedContents on the local engine: create (sized by the model's cache counting rules and held
 * to the model's minimum), list with keyset page tokens, get, update of the expiration only,
 * delete, real expiry, the merge of a cache into a generate/count request and the count of a
 * request with its cache. Differs
 * knowingly: timestamps carry millisecond precision (0 or 3 fractional digits).
 */
import type { CacheRecord, CacheStore, CachedInput } from "@/lib/db/stores/cache-store";
import { ApiError } from "@/lib/gemini/api-error";
import { cachedContentDenied } from "@/lib/gemini/resource-errors";
import type { Caller } from "@/lib/gemini/backend/contract";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type {
  CachedContent,
  CachedContentCreate,
  CachedContentUpdate,
  Content,
  CountTokensResponse,
  GenerateContentRequest,
  ListCachedContentsResponse,
  MediaResolution,
  ModalityTokenCount,
  Tool,
  ToolConfig,
} from "@/lib/gemini/types";
import {
  EXPIRY_DIGITS,
  formatTimestampDigits,
  parseDuration,
  parseTimestamp,
  STAMP_DIGITS,
} from "@/lib/gemini/wire-time";
import { requireModel } from "../catalog";
import { CACHE_ID_LENGTH, randomResourceId } from "../files/random-id";
import { keysetPage } from "@/lib/gemini/page-token";
import { PAGE_LIMITS } from "@/lib/gemini/page-limits";
import { assertCacheQuota, cachedInputOf, type CacheQuota } from "@/lib/gemini/backend/quotas";
import type { QuotaUsage } from "@/lib/db/stores/quota-admission";
import { jsonTextWithSize } from "@/lib/runtime/json-stringify-in-slices";
import { parseJsonInSlices } from "@/lib/runtime/json-parse-in-slices";

export const DEFAULT_CACHE_TTL_MS = 3_600_000;

/** The part of a request the token counter sizes. */
export interface CountableInput {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
  mediaResolution?: MediaResolution;
  /** generationConfig.responseSchema, counted where the model's family counts it. */
  responseSchema?: unknown;
}

/** Counts a request's input tokens with the model's tokenizer; file URIs resolve for the caller. */
export type InputTokenCounter = (
  traits: ModelTraits,
  input: CountableInput,
  caller: Caller,
  signal?: AbortSignal,
  /**
   * `countTokens` for that method's answer (its role-token rule and per-Content split); `cache`
   * for a cache's size at creation (its model's cache counting rules).
   */
  purpose?: "countTokens" | "cache",
) => Promise<CountTokensResponse>;

export interface CacheServiceOptions {
  store: CacheStore;
  countTokens: InputTokenCounter;
  /** Per-owner caches and bytes (lib/gemini/backend/quotas); absent or 0: no quota. */
  quota?: CacheQuota;
  now?: () => number;
}

/** A generate or count request with its cache merged in, and what the cache adds to usage. */
export interface CacheMerge {
  mergedRequest: GenerateContentRequest;
  /** Tokens the cache contributes (absent when the request names no cache). */
  cachedContentTokenCount?: number;
  cacheTokensDetails?: ModalityTokenCount[];
}

function cacheIdFrom(name: string): string | null {
  const id = name.startsWith("cachedContents/") ? name.slice("cachedContents/".length) : name;
  return /^[a-z0-9][a-z0-9-]{0,62}$/.test(id) ? id : null;
}

function toWire(record: CacheRecord): CachedContent {
  return {
    name: `cachedContents/${record.id}`,
    model: record.model,
    displayName: record.displayName,
    createTime: formatTimestampDigits(record.createTime, STAMP_DIGITS),
    updateTime: formatTimestampDigits(record.updateTime, STAMP_DIGITS),
    expireTime: formatTimestampDigits(record.expireTime, EXPIRY_DIGITS),
    usageMetadata: { totalTokenCount: record.totalTokenCount },
  };
}

export class CacheService {
  readonly store: CacheStore;
  private readonly now: () => number;

  constructor(private readonly options: CacheServiceOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
  }

  /** Expiration in epoch ms from ttl or expireTime (already checked for shape and exclusivity). */
  private expiration(
    input: { ttl?: string; expireTime?: string },
    now: number,
    fallbackTtlMs: number | null,
  ): number {
    if (input.ttl !== undefined) {
      const ttl = parseDuration(input.ttl, "ttl");
      if (!(ttl > 0))
        throw ApiError.invalidArgument(`* ttl: must be a positive duration; got "${input.ttl}".`, [
          { field: "ttl", description: "must be positive" },
        ]);
      return now + Math.floor(ttl);
    }
    if (input.expireTime !== undefined) {
      const expireTime = parseTimestamp(input.expireTime, "expire_time");
      if (expireTime <= now) {
        throw ApiError.invalidArgument(
          `* expire_time: must be in the future; got "${input.expireTime}".`,
          [{ field: "expire_time", description: "must be in the future" }],
        );
      }
      return expireTime;
    }
    if (fallbackTtlMs === null) {
      throw ApiError.invalidArgument(
        "* Only the expiration can be updated: set ttl or expire_time.",
        [{ field: "update_mask", description: "ttl or expire_time must be set" }],
      );
    }
    return now + fallbackTtlMs;
  }

  async create(
    request: CachedContentCreate,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<CachedContent> {
    const { traits } = requireModel(request.model, "createCachedContent");
    const now = this.now();
    const expireTime = this.expiration(request, now, DEFAULT_CACHE_TTL_MS);
    const input: CachedInput = cachedInputOf(request);
    // Serialized once (in slices: it may be megabytes): measured for the quota (before the
    // tokens are counted) and stored.
    const { text: json, bytes: sizeBytes } = await jsonTextWithSize(input);
    // Checked here to refuse before the tokens are counted, and again with the insert.
    const quota = this.options.quota;
    const admission = quota && {
      admit: (usage: QuotaUsage) => assertCacheQuota(usage, sizeBytes, quota),
    };
    admission?.admit(await this.store.usage(caller.ownerId, now));
    const counted = await this.options.countTokens(traits, input, caller, signal, "cache");
    if (counted.totalTokens < traits.minCacheTokens) {
      throw ApiError.invalidArgument(
        `Cached content is too small. total_token_count=${counted.totalTokens}, min_total_token_count=${traits.minCacheTokens}`,
      );
    }
    if (counted.totalTokens > traits.inputTokenLimit) {
      throw ApiError.invalidArgument(
        `The input token count (${counted.totalTokens}) exceeds the maximum number of tokens allowed (${traits.inputTokenLimit}).`,
      );
    }
    let id = randomResourceId(CACHE_ID_LENGTH);
    while (await this.store.exists(id)) id = randomResourceId(CACHE_ID_LENGTH);
    const record: CacheRecord = {
      id,
      ownerId: caller.ownerId,
      model: traits.name,
      displayName: request.displayName ?? "",
      totalTokenCount: counted.totalTokens,
      tokenDetails: counted.promptTokensDetails ?? null,
      createTime: now,
      updateTime: now,
      expireTime,
    };
    await this.store.insert(record, { json, sizeBytes }, admission);
    return toWire(record);
  }

  /** A live cache of the caller's, or the service's 403. */
  private async require(name: string, caller: Caller): Promise<CacheRecord> {
    const id = cacheIdFrom(name);
    const record = id ? await this.store.get(id) : undefined;
    if (!record || record.ownerId !== caller.ownerId || record.expireTime <= this.now())
      throw cachedContentDenied();
    return record;
  }

  async get(name: string, caller: Caller): Promise<CachedContent> {
    return toWire(await this.require(name, caller));
  }

  /** A cache's input, parsed in slices (a cache of media is megabytes of JSON); gone: the service's 403. */
  private async storedInput(id: string): Promise<CachedInput> {
    const json = await this.store.inputJson(id);
    if (json === undefined) throw cachedContentDenied();
    return (await parseJsonInSlices(json)) as CachedInput;
  }

  /** What a live cache of the caller's holds (URL context reads it), or the service's 403. */
  async inputForCaller(name: string, caller: Caller): Promise<CachedInput> {
    const record = await this.require(name, caller);
    const input = await this.storedInput(record.id);
    return input;
  }

  /** The caller's live caches, newest first; tokens are bound to the page size. */
  async list(
    query: { pageSize?: number; pageToken?: string },
    caller: Caller,
  ): Promise<ListCachedContentsResponse> {
    const page = await keysetPage(
      query,
      PAGE_LIMITS.cachedContents,
      `cachedContents:${caller.ownerId}`,
      (limit, after) => this.store.list(caller.ownerId, this.now(), limit, after),
    );
    const response: ListCachedContentsResponse = {};
    if (page.rows.length > 0) response.cachedContents = page.rows.map(toWire);
    if (page.nextPageToken) response.nextPageToken = page.nextPageToken;
    return response;
  }

  /** Sets a new expiration (ttl from now, or expireTime); nothing else is updatable. */
  async update(name: string, update: CachedContentUpdate, caller: Caller): Promise<CachedContent> {
    const record = await this.require(name, caller);
    if (update.model !== undefined && update.model !== record.model) {
      throw ApiError.invalidArgument(
        "* UpdateCachedContentRequest.cached_content.model: model cannot be updated; only ttl or expire_time can be updated.",
        [
          {
            field: "cached_content.model",
            description: "model cannot be updated; only ttl or expire_time can be updated.",
          },
        ],
      );
    }
    const now = this.now();
    const expireTime = this.expiration(update, now, null);
    await this.store.updateExpiry(record.id, expireTime, now);
    return toWire({ ...record, expireTime, updateTime: now });
  }

  async delete(name: string, caller: Caller): Promise<void> {
    const record = await this.require(name, caller);
    await this.store.delete(record.id);
  }

  /** Forgets expired caches; they already answer 403 and are left out of lists. */
  sweep(): Promise<number> {
    return this.store.deleteExpired(this.now());
  }

  /**
   * Prepends the named cache to a generate/count request: 400 when the request also sets
   * systemInstruction, tools or toolConfig, 400 when the cache is for another model, 403
   * when it is missing, expired or not the caller's.
   */
  async resolveCachedContentForRequest(
    request: GenerateContentRequest,
    traits: ModelTraits,
    caller: Caller,
  ): Promise<CacheMerge> {
    if (!request.cachedContent) return { mergedRequest: request };
    const conflicting = (["systemInstruction", "tools", "toolConfig"] as const).filter(
      (field) => request[field] !== undefined,
    );
    if (conflicting.length > 0) {
      throw ApiError.invalidArgument(
        `CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config (this request sets ${conflicting.join(", ")}).\n\nProposed fix: move those values to CachedContent from GenerateContent request.`,
        conflicting.map((field) => ({
          field,
          description:
            "must not be set together with cached_content; put it in the cached content instead",
        })),
      );
    }
    const record = await this.require(request.cachedContent, caller);
    if (record.model !== traits.name) {
      throw ApiError.invalidArgument(
        `Model used by GenerateContent request (${traits.name}) and CachedContent (${record.model}) has to be the same.`,
        [{ field: "cached_content", description: `was created for ${record.model}` }],
      );
    }
    const input = await this.storedInput(record.id);
    const { cachedContent: _cachedContent, ...rest } = request;
    const mergedRequest: GenerateContentRequest = {
      ...rest,
      contents: [...input.contents, ...request.contents],
      ...(input.systemInstruction ? { systemInstruction: input.systemInstruction } : {}),
      ...(input.tools ? { tools: input.tools } : {}),
      ...(input.toolConfig ? { toolConfig: input.toolConfig } : {}),
    };
    return {
      mergedRequest,
      cachedContentTokenCount: record.totalTokenCount,
      ...(record.tokenDetails ? { cacheTokensDetails: record.tokenDetails } : {}),
    };
  }

  /** countTokens of a generate request, the named cache included. */
  async countWithCache(
    request: GenerateContentRequest,
    traits: ModelTraits,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    const merge = await this.resolveCachedContentForRequest(request, traits, caller);
    const { mediaResolution, responseSchema } = request.generationConfig ?? {};
    if (merge.cachedContentTokenCount === undefined) {
      return this.options.countTokens(
        traits,
        {
          contents: request.contents,
          systemInstruction: request.systemInstruction,
          tools: request.tools,
          toolConfig: request.toolConfig,
          mediaResolution,
          responseSchema,
        },
        caller,
        signal,
        "countTokens",
      );
    }
    // The cache was sized once at creation; only the request's own turns are counted now.
    const own = await this.options.countTokens(
      traits,
      { contents: request.contents, mediaResolution, responseSchema },
      caller,
      signal,
      "countTokens",
    );
    const promptTokensDetails = addModalityCounts(
      own.promptTokensDetails,
      merge.cacheTokensDetails,
    );
    const { systemInstructionsTokens, contentTokens } = own;
    return {
      totalTokens: own.totalTokens + merge.cachedContentTokenCount,
      cachedContentTokenCount: merge.cachedContentTokenCount,
      ...(systemInstructionsTokens ? { systemInstructionsTokens } : {}),
      ...(contentTokens ? { contentTokens } : {}),
      ...(promptTokensDetails ? { promptTokensDetails } : {}),
      ...(merge.cacheTokensDetails ? { cacheTokensDetails: merge.cacheTokensDetails } : {}),
    };
  }
}

/** Adds per-modality counts of two breakdowns. */
function addModalityCounts(
  first: ModalityTokenCount[] | undefined,
  second: ModalityTokenCount[] | undefined,
): ModalityTokenCount[] | undefined {
  if (!first && !second) return undefined;
  const totals = new Map<ModalityTokenCount["modality"], number>();
  for (const item of [...(first ?? []), ...(second ?? [])])
    totals.set(item.modality, (totals.get(item.modality) ?? 0) + item.tokenCount);
  return [...totals].map(([modality, tokenCount]) => ({ modality, tokenCount }));
}
