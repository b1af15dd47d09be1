/**
 * Per-owner quotas both backends enforce the same way: how many cached
 * contents an owner may hold at once and how many bytes of cached input. Bytes, not tokens:
 * the size is known from the canonical request before anything expensive runs (tokens would
 * need the slow tokenizer, or the upstream's count after it has already stored and billed
 * the cache), and it is what the local engine stores. Over a quota: the service's 429
 * RESOURCE_EXHAUSTED with a QuotaFailure. 0 turns a quota off.
 */
import { ApiError } from "../api-error";
import type { CachedContentCreate, Content, Tool, ToolConfig } from "../types";

export interface CacheQuota {
  count: number;
  bytes: number;
}

export interface QuotaUsage {
  count: number;
  bytes: number;
}

/** What a cache holds (the input a generation using it is given), as both backends measure it. */
export function cachedInputOf(request: CachedContentCreate): {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Tool[];
  toolConfig?: ToolConfig;
} {
  return {
    contents: request.contents ?? [],
    ...(request.systemInstruction ? { systemInstruction: request.systemInstruction } : {}),
    ...(request.tools ? { tools: request.tools } : {}),
    ...(request.toolConfig ? { toolConfig: request.toolConfig } : {}),
  };
}

/** The UTF-8 length of `text`, counted without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** Throws the service's 429 when one more cache of `addedBytes` would exceed the quota. */
export function assertCacheQuota(usage: QuotaUsage, addedBytes: number, quota: CacheQuota): void {
  if (quota.count > 0 && usage.count + 1 > quota.count) {
    throw ApiError.quotaExceeded(
      {
        quotaMetric: "genstudio/cached_contents",
        quotaId: "CachedContentsPerOwner",
        quotaValue: String(quota.count),
      },
      `At most ${quota.count} cached contents per caller may exist at once, and ${usage.count} do: delete some or let them expire.`,
    );
  }
  if (quota.bytes > 0 && usage.bytes + addedBytes > quota.bytes) {
    throw ApiError.quotaExceeded(
      {
        quotaMetric: "genstudio/cached_content_bytes",
        quotaId: "CachedContentBytesPerOwner",
        quotaValue: String(quota.bytes),
      },
      `Cached contents may hold at most ${quota.bytes} bytes per caller; ${usage.bytes} are held and this one needs ${addedBytes}: delete some or let them expire.`,
    );
  }
}
