"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { PresetList, SettingsPreset } from "@/lib/studio/settings-presets";
import { PRESETS_QUERY_KEY } from "@/lib/studio/query-keys";

/** Server state of the person's settings presets (`/api/presets`). */

export function presetsQueryOptions() {
  return queryOptions({
    queryKey: PRESETS_QUERY_KEY,
    queryFn: async (): Promise<PresetList> => {
      const response = await fetch("/api/presets", {
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) throw await readApiError(response);
      return (await response.json()) as PresetList;
    },
    staleTime: 30_000,
  });
}

export function usePresets() {
  return useQuery(presetsQueryOptions());
}

async function presetRequest(name: string, init: RequestInit): Promise<unknown> {
  const response = await fetch(`/api/presets/${encodeURIComponent(name)}`, {
    ...init,
    credentials: "same-origin",
  });
  if (!response.ok) throw await readApiError(response);
  return response.json();
}

export function useSavePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preset: { name: string; settings: ConversationSettings; isDefault: boolean }) =>
      presetRequest(preset.name, {
        method: "PUT",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ settings: preset.settings, isDefault: preset.isDefault }),
      }) as Promise<SettingsPreset>,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: presetsQueryOptions().queryKey }),
  });
}

export function useDeletePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => presetRequest(name, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: presetsQueryOptions().queryKey }),
  });
}
