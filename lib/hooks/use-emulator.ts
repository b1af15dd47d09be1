"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { RequestLogEntry, ScenarioView } from "@/lib/gemini/emulator-types";

export type { LoggedBody, RequestLogEntry, ScenarioView } from "@/lib/gemini/emulator-types";

/**
 * Server state of the emulator page: the caller's scenarios and its request log
 * (`/emulator/...`, the session's own), through react-query. The log is polled while the page
 * is open, so requests appear as they are made.
 */

const keys = {
  scenarios: ["emulator", "scenarios"] as const,
  requests: ["emulator", "requests"] as const,
};

/** How often the request log is read again while the page shows it. */
export const LOG_REFRESH_MS = 1_500;

async function emulatorJson<Result>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<Result> {
  const response = await fetch(`/emulator/${path}`, {
    method: init.method ?? "GET",
    headers: init.body !== undefined ? { "Content-Type": "application/json" } : undefined,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
    cache: "no-store",
    signal: init.signal,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as Result;
}

export function useScenarios() {
  return useQuery({
    queryKey: keys.scenarios,
    queryFn: ({ signal }) =>
      emulatorJson<{ scenarios: ScenarioView[] }>("scenarios", { signal }).then(
        (body) => body.scenarios,
      ),
    refetchInterval: LOG_REFRESH_MS,
  });
}

export function useRequestLog() {
  return useQuery({
    queryKey: keys.requests,
    queryFn: ({ signal }) =>
      emulatorJson<{ requests: RequestLogEntry[] }>("requests?limit=200", { signal }).then((body) =>
        [...body.requests].reverse(),
      ),
    refetchInterval: LOG_REFRESH_MS,
  });
}

/** Creates a scenario (`id` absent) or replaces one; the server's 400 comes back as the error. */
export function useSaveScenario() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, scenario }: { id?: string; scenario: unknown }) =>
      emulatorJson<ScenarioView>(id ? `scenarios/${encodeURIComponent(id)}` : "scenarios", {
        method: id ? "PUT" : "POST",
        body: scenario,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.scenarios }),
  });
}

export function useDeleteScenario() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      emulatorJson<object>(`scenarios/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.scenarios }),
  });
}

export function useClearRequestLog() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => emulatorJson<object>("requests", { method: "DELETE" }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.requests }),
  });
}
