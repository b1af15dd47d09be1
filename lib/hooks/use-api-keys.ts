"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { KeyLimits } from "@/lib/studio/key-limits";
import type { ApiKeyView, CreatedApiKey } from "@/lib/studio/people";
import { studioFetch } from "@/lib/client/studio-fetch";
import { sessionQueryKey } from "./use-session";

export const apiKeysQueryKey = ["api-keys"] as const;

/** The workspace's API keys (never a secret). */
export function useApiKeys(enabled = true) {
  return useQuery({
    queryKey: apiKeysQueryKey,
    queryFn: async () => (await studioFetch<{ keys: ApiKeyView[] }>("/api/keys")).keys,
    enabled,
  });
}

/** Makes a key; its secret is in the answer, once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; limits?: KeyLimits }) =>
      studioFetch<CreatedApiKey>("/api/keys", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: string; name?: string; limits?: KeyLimits }) =>
      studioFetch<ApiKeyView>(`/api/keys/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: changes,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      studioFetch(`/api/keys/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { currentPassword?: string; newPassword: string }) =>
      studioFetch("/api/account/password", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}
