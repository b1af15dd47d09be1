"use client";

import { usePathname } from "next/navigation";
import { useEffect, type ReactNode } from "react";
import { useSession, useSignIn } from "@/lib/hooks/use-session";
import { SignInForm } from "./sign-in-form";

/** Pages anyone may open: the link's token is their credential. */
const PUBLIC_PATHS = ["/invitation"];

/**
 * Renders the studio once this browser has a session. Under the development default the
 * session is opened silently; otherwise it asks for the access code, or (with people) an
 * email and password or the provider.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const session = useSession();
  const signIn = useSignIn();
  const needsSilentSignIn =
    session.data && !session.data.authenticated && session.data.signIn === "development";

  useEffect(() => {
    if (needsSilentSignIn && signIn.isIdle) signIn.mutate(undefined);
  }, [needsSilentSignIn, signIn]);

  if (PUBLIC_PATHS.includes(pathname)) return <>{children}</>;
  if (session.isError) {
    return (
      <CenteredMessage role="alert">
        Could not reach the studio server: {session.error.message}
      </CenteredMessage>
    );
  }
  if (session.data?.authenticated) return <>{children}</>;
  if (session.data && session.data.signIn !== "development")
    return <SignInForm state={session.data} />;
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
