"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SessionState } from "@/lib/studio/people";
import { studioFetch } from "@/lib/client/studio-fetch";

export type { SessionState };

export const sessionQueryKey = ["session"] as const;

/** What a page sends to sign in: the access code, an email and password, or nothing (development). */
export type SignInInput = { accessCode: string } | { email: string; password: string } | undefined;

export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: () => studioFetch<SessionState>("/api/session"),
    staleTime: Infinity,
  });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInInput) =>
      studioFetch<SessionState>("/api/session", { method: "POST", body: input ?? {} }),
    onSuccess: (state) => queryClient.setQueryData(sessionQueryKey, state),
  });
}

/** Signs this browser out, or (`everywhere`) every browser of this person (or of the studio). */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ everywhere }: { everywhere: boolean }) =>
      studioFetch(`/api/session${everywhere ? "?everywhere=true" : ""}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}

/** An admin's browser acts on another workspace (null: their own); every page's data reloads. */
export function useSwitchWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ownerId: string | null) =>
      studioFetch("/api/session/workspace", { method: "PUT", body: { ownerId } }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
