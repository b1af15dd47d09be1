"use client";

import { useSession } from "@/lib/hooks/use-session";
import { ApiKeysSection } from "./api-keys-section";
import { PasswordSection } from "./password-section";

/** The account page: who is signed in, their password (with people) and their workspace's keys. */
export function AccountView() {
  const session = useSession();
  const person = session.data?.person;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4">
      <h1 className="text-lg font-semibold">Account</h1>
      {person ? (
        <p className="text-sm">
          Signed in as <strong>{person.name}</strong> ({person.email}), {person.role}.
        </p>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          This studio has one shared workspace: everyone who signs in uses the same chats, files,
          caches and keys.
        </p>
      )}
      {person && <PasswordSection hasPassword={person.hasPassword} />}
      <ApiKeysSection />
    </div>
  );
}
