"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { UsageReport } from "@/lib/studio/usage-report";
import { studioFetch } from "@/lib/client/studio-fetch";

export interface UsageFilters {
  from?: string;
  to?: string;
  model?: string;
  keyId?: string;
  personId?: string;
}

/** The query string of a usage report or export: only the filters that are set. */
export function usageQueryString(filters: UsageFilters): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** The Usage page's report for `filters` (the last one stays shown while the next loads). */
export function useUsageReport(filters: UsageFilters) {
  return useQuery({
    queryKey: ["usage", filters],
    queryFn: () => studioFetch<UsageReport>(`/api/usage${usageQueryString(filters)}`),
    placeholderData: keepPreviousData,
  });
}
