"use client";

import { useSession } from "@/lib/hooks/use-session";
import { InvitationsSection } from "./invitations-section";
import { PeopleSection } from "./people-section";
import { WorkspaceSwitcher } from "./workspace-switcher";

/** The admin page: people, invitations, and whose workspace to act on. */
export function AdminView() {
  const session = useSession();
  if (session.data && session.data.person?.role !== "admin") {
    return (
      <p role="alert" className="p-4 text-sm">
        Only admins can open this page.
      </p>
    );
  }
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4">
      <h1 className="text-lg font-semibold">Admin</h1>
      <WorkspaceSwitcher />
      <InvitationsSection />
      <PeopleSection />
    </div>
  );
}
