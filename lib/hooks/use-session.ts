"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";

export interface SessionState {
  authenticated: boolean;
  accessCodeRequired: boolean;
  mode: "local" | "upstream";
}

export const sessionQueryKey = ["session"] as const;

async function fetchSession(): Promise<SessionState> {
  const response = await fetch("/api/session", { cache: "no-store" });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as SessionState;
}

async function openSession(accessCode?: string): Promise<SessionState> {
  const response = await fetch("/api/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(accessCode === undefined ? {} : { accessCode }),
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as SessionState;
}

export function useSession() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: Infinity });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: openSession,
    onSuccess: (state) => queryClient.setQueryData(sessionQueryKey, state),
  });
}

async function closeSession(everywhere: boolean): Promise<void> {
  const response = await fetch(`/api/session${everywhere ? "?everywhere=true" : ""}`, {
    method: "DELETE",
  });
  if (!response.ok) throw await readApiError(response);
}

/** Signs this browser out, or (`everywhere`) every browser signed in to the studio. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ everywhere }: { everywhere: boolean }) => closeSession(everywhere),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}
