"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { useSignIn, type SessionState } from "@/lib/hooks/use-session";

const INPUT = "rounded-md border border-zinc-300 bg-transparent px-3 py-2 dark:border-zinc-700";

/**
 * Signing in: the access code (the single-person mode), or an email and password and, when a
 * provider is configured, "Sign in with <provider>" (a link: the browser goes there and back).
 * A failed sign-in through the provider comes back as `?sign_in_error=`.
 */
export function SignInForm({ state }: { state: SessionState }) {
  const signIn = useSignIn();
  const [code, setCode] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  // Read from the page's address as the server renders it too (the session comes with the
  // page); then taken off the address, so a reload does not show it again.
  const addressedError = useSearchParams().get("sign_in_error");
  const [providerError, setProviderError] = useState(addressedError);
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has("sign_in_error")) return;
    url.searchParams.delete("sign_in_error");
    window.history.replaceState(null, "", url);
  }, []);
  const people = state.signIn === "people";
  function submit(event: FormEvent) {
    event.preventDefault();
    setProviderError(null);
    signIn.mutate(people ? { email, password } : { accessCode: code });
  }
  const error = signIn.isError ? signIn.error.message : providerError;
  return (
    <div className="mx-auto mt-24 flex w-full max-w-sm flex-col gap-4 p-4">
      <h1 className="text-lg font-semibold">Sign in to Genstudio</h1>
      <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Sign in">
        {people ? (
          <>
            <label className="flex flex-col gap-1 text-sm">
              Email
              <input
                type="email"
                autoComplete="username"
                autoFocus
                required
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                className={INPUT}
              />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              Password
              <input
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                className={INPUT}
              />
            </label>
          </>
        ) : (
          <label className="flex flex-col gap-1 text-sm">
            Access code
            <input
              type="password"
              autoFocus
              required
              value={code}
              onChange={(event) => setCode(event.target.value)}
              className={INPUT}
            />
          </label>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
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
      {people && state.provider && (
        <a
          href="/api/session/oidc"
          className="rounded-md border border-zinc-300 px-3 py-2 text-center text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Sign in with {state.provider}
        </a>
      )}
      {people && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          No account yet? Ask an admin of this studio for an invitation.
        </p>
      )}
    </div>
  );
}
