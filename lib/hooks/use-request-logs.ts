"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  LogSettingsView,
  Logging,
  RequestLogDetail,
  RequestLogPage,
} from "@/lib/studio/request-logs";
import { studioFetch } from "@/lib/client/studio-fetch";

export interface LogFilters {
  model?: string;
  status?: string;
  keyId?: string;
  personId?: string;
  from?: string;
  to?: string;
}

/** The query string of a log listing or export: the filters that are set, times as RFC 3339. */
export function logQueryString(filters: LogFilters, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (!value) continue;
    // datetime-local gives local wall time without a zone: sent as the instant it names.
    query.set(name, name === "from" || name === "to" ? new Date(value).toISOString() : value);
  }
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** Pages of log entries, newest first. */
export function useRequestLogs(filters: LogFilters) {
  return useInfiniteQuery({
    queryKey: ["request-logs", filters],
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      studioFetch<RequestLogPage>(
        `/api/logs${logQueryString(filters, pageParam ? { before: pageParam } : {})}`,
      ),
    getNextPageParam: (page) => page.nextBefore,
  });
}

export function useRequestLog(id: string | null) {
  return useQuery({
    queryKey: ["request-log", id],
    queryFn: () => studioFetch<RequestLogDetail>(`/api/logs/${encodeURIComponent(id!)}`),
    enabled: id !== null,
  });
}

const settingsKey = ["log-settings"] as const;

export function useLogSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: () => studioFetch<LogSettingsView>("/api/logs/settings"),
  });
}

export function useChangeLogSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { subject: string; logging: Logging | null }) =>
      studioFetch<LogSettingsView>("/api/logs/settings", { method: "PUT", body: change }),
    onSuccess: (settings) => queryClient.setQueryData(settingsKey, settings),
  });
}

export interface AuditEventView {
  id: string;
  at: string;
  actorId: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

/** The audit log, newest first (admins). */
export function useAuditLog(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ["audit"],
    initialPageParam: "",
    queryFn: ({ pageParam }) =>
      studioFetch<{ events: AuditEventView[]; nextBefore?: string }>(
        `/api/admin/audit${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    getNextPageParam: (page) => page.nextBefore,
    enabled,
  });
}
