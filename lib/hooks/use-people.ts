"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { KeyLimits } from "@/lib/studio/key-limits";
import type { PersonLinkView, PersonView, Role, WorkspaceView } from "@/lib/studio/people";
import { studioFetch } from "@/lib/client/studio-fetch";

/** An admin's view: people, open links, workspaces. */

const peopleKey = ["admin", "people"] as const;
const linksKey = ["admin", "links"] as const;

export interface IssuedLink {
  link: PersonLinkView;
  url: string;
}

export function usePeople() {
  return useQuery({
    queryKey: peopleKey,
    queryFn: async () => (await studioFetch<{ people: PersonView[] }>("/api/admin/people")).people,
  });
}

export function useOpenLinks() {
  return useQuery({
    queryKey: linksKey,
    queryFn: async () =>
      (await studioFetch<{ links: PersonLinkView[] }>("/api/admin/invitations")).links,
  });
}

export function useWorkspaces(enabled: boolean) {
  return useQuery({
    queryKey: ["admin", "workspaces"],
    queryFn: async () =>
      (await studioFetch<{ workspaces: WorkspaceView[] }>("/api/admin/workspaces")).workspaces,
    enabled,
  });
}

export function useUpdatePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      ...changes
    }: {
      id: string;
      role?: Role;
      disabled?: boolean;
      allowance?: KeyLimits | null;
    }) =>
      studioFetch<PersonView>(`/api/admin/people/${encodeURIComponent(id)}`, {
        method: "PATCH",
        body: changes,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin"] }),
  });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      studioFetch<IssuedLink>(`/api/admin/people/${encodeURIComponent(id)}/reset`, {
        method: "POST",
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin"] }),
  });
}

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) =>
      studioFetch<IssuedLink>("/api/admin/invitations", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linksKey }),
  });
}

export function useWithdrawLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      studioFetch(`/api/admin/invitations/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linksKey }),
  });
}
