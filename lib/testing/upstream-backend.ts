/** A gateway backend for unit tests, in front of a test upstream, over a test database's stores. */
import type { DataStores } from "@/lib/db/data-stores";
import type { CacheQuota } from "@/lib/gemini/backend/quotas";
import type { UpstreamSettings } from "@/lib/server/config/env";
import {
  createUpstreamBackend,
  type UpstreamBackend,
} from "@/lib/server/upstream/upstream-backend";
import type { UpstreamClient } from "@/lib/server/upstream/upstream-client";

/** Short timeouts and one attempt, unless `overrides` say otherwise. */
export function testUpstreamSettings(
  baseUrl: string,
  overrides: Partial<UpstreamSettings> = {},
): UpstreamSettings {
  return {
    apiKey: "upstream-secret-key-for-tests-0001",
    baseUrl,
    connectTimeoutMs: 1_000,
    firstByteTimeoutMs: 2_000,
    idleTimeoutMs: 2_000,
    maxAttempts: 1,
    retryBaseDelayMs: 20,
    retryMaxDelayMs: 100,
    ...overrides,
  };
}

export function testUpstreamBackend(
  stores: DataStores,
  settings: UpstreamSettings,
  options: { cacheQuota?: CacheQuota; client?: UpstreamClient } = {},
): UpstreamBackend {
  return createUpstreamBackend({
    settings,
    ownership: stores.ownership,
    uploadSessions: stores.upstreamUploads,
    ...options,
  });
}
