"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore, type FormEvent } from "react";
import { studioFetch } from "@/lib/client/studio-fetch";
import { sessionQueryKey, type SessionState } from "@/lib/hooks/use-session";

const INPUT = "rounded-md border border-zinc-300 bg-transparent px-3 py-2 dark:border-zinc-700";

/**
 * Using a one-time link: an invitation (a name and a password make the account) or a password
 * reset (a new password). The token is read from the link's fragment, which no server sees.
 */
function noSubscription(): () => void {
  return () => undefined;
}

function linkToken(): string {
  return window.location.hash.slice(1);
}

export function InvitationView() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const token = useSyncExternalStore(noSubscription, linkToken, () => null);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const link = useQuery({
    queryKey: ["invitation", token],
    queryFn: () =>
      studioFetch<{ kind: "invitation" | "reset"; email: string }>("/api/invitations/lookup", {
        method: "POST",
        body: { token },
      }),
    enabled: Boolean(token),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () =>
      studioFetch<SessionState>("/api/invitations/accept", {
        method: "POST",
        body: { token, password, ...(name.trim() ? { name: name.trim() } : {}) },
      }),
    onSuccess: (state) => {
      queryClient.setQueryData(sessionQueryKey, state);
      router.push("/");
    },
  });
  const mismatch = again !== "" && again !== password;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!mismatch) accept.mutate();
  }
  if (token === "")
    return (
      <p role="alert" className="p-8 text-sm">
        This page needs the whole link an admin sent.
      </p>
    );
  if (link.isError)
    return (
      <p role="alert" className="p-8 text-sm">
        {link.error.message}
      </p>
    );
  if (!link.data)
    return (
      <p role="status" className="p-8 text-sm">
        Reading the link…
      </p>
    );
  const invitation = link.data.kind === "invitation";
  return (
    <form
      onSubmit={submit}
      aria-label={invitation ? "Accept the invitation" : "Set a new password"}
      className="mx-auto mt-16 flex w-full max-w-sm flex-col gap-3 p-4"
    >
      <h1 className="text-lg font-semibold">
        {invitation ? "Join this Genstudio" : "Set a new password"}
      </h1>
      <p className="text-sm">
        For <strong>{link.data.email}</strong>.
      </p>
      {invitation && (
        <label className="flex flex-col gap-1 text-sm">
          Your name
          <input
            className={INPUT}
            autoComplete="name"
            maxLength={120}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
      )}
      <label className="flex flex-col gap-1 text-sm">
        Password (at least 12 characters)
        <input
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          className={INPUT}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Password again
        <input
          type="password"
          autoComplete="new-password"
          required
          aria-invalid={mismatch || undefined}
          className={INPUT}
          value={again}
          onChange={(event) => setAgain(event.target.value)}
        />
      </label>
      {mismatch && <p className="text-sm text-red-700 dark:text-red-400">The two differ.</p>}
      {accept.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {accept.error.message}
        </p>
      )}
      <button
        type="submit"
        disabled={accept.isPending || mismatch}
        className="rounded-md bg-zinc-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {invitation ? "Create my account" : "Set password"}
      </button>
    </form>
  );
}
