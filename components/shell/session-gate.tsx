"use client";

import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useSession, useSignIn } from "@/lib/hooks/use-session";

/**
 * Renders the studio once this browser has a session. Without an access code configured
 * (loopback development default) the session is opened silently; otherwise it asks for the code.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const session = useSession();
  const signIn = useSignIn();
  const needsSilentSignIn =
    session.data && !session.data.authenticated && !session.data.accessCodeRequired;

  useEffect(() => {
    if (needsSilentSignIn && signIn.isIdle) signIn.mutate(undefined);
  }, [needsSilentSignIn, signIn]);

  if (session.isError) {
    return (
      <CenteredMessage role="alert">
        Could not reach the studio server: {session.error.message}
      </CenteredMessage>
    );
  }
  if (session.data?.authenticated) return <>{children}</>;
  if (session.data?.accessCodeRequired) return <AccessCodeForm />;
  if (signIn.isError)
    return (
      <CenteredMessage role="alert">
        Could not open a session: {signIn.error.message}
      </CenteredMessage>
    );
  return <CenteredMessage role="status">Opening the studio…</CenteredMessage>;
}

function CenteredMessage({ children, role }: { children: ReactNode; role: "status" | "alert" }) {
  return (
    <div
      role={role}
      className="flex flex-1 items-center justify-center p-8 text-sm text-zinc-600 dark:text-zinc-400"
    >
      {children}
    </div>
  );
}

function AccessCodeForm() {
  const signIn = useSignIn();
  const [code, setCode] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate(code);
  }
  return (
    <form
      onSubmit={submit}
      className="mx-auto mt-24 flex w-full max-w-sm flex-col gap-3 p-4"
      aria-label="Sign in"
    >
      <h1 className="text-lg font-semibold">Sign in to Genstudio</h1>
      <label className="flex flex-col gap-1 text-sm">
        Access code
        <input
          type="password"
          autoFocus
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
          className="rounded-md border border-zinc-300 bg-transparent px-3 py-2 dark:border-zinc-700"
        />
      </label>
      {signIn.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {signIn.error.message}
        </p>
      )}
      <button
        type="submit"
        disabled={signIn.isPending}
        className="rounded-md bg-zinc-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
