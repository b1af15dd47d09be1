"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useInvite, useOpenLinks, useWithdrawLink } from "@/lib/hooks/use-people";
import type { Role } from "@/lib/studio/people";
import { IssuedLinkNotice } from "./issued-link-notice";

const INPUT =
  "rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700";

/** Inviting someone (a one-time link), and the links not yet used. */
export function InvitationsSection() {
  const invite = useInvite();
  const links = useOpenLinks();
  const withdraw = useWithdrawLink();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate({ email, role }, { onSuccess: () => setEmail("") });
  }
  return (
    <section aria-labelledby="invitations-heading" className="flex flex-col gap-3">
      <h2 id="invitations-heading" className="text-base font-semibold">
        Invitations
      </h2>
      <form
        onSubmit={submit}
        aria-label="Invite someone"
        className="flex flex-wrap items-end gap-2"
      >
        <label className="flex flex-col gap-1 text-xs font-medium">
          Email
          <input
            type="email"
            required
            className={INPUT}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium">
          Role
          <select
            className={INPUT}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </label>
        <Button type="submit" variant="primary" disabled={invite.isPending}>
          Invite
        </Button>
      </form>
      {invite.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {invite.error.message}
        </p>
      )}
      {invite.data && <IssuedLinkNotice issued={invite.data} />}
      {links.data && links.data.length > 0 && (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Links not yet used</caption>
          <thead>
            <tr className="text-xs text-zinc-600 dark:text-zinc-400">
              <th scope="col">Email</th>
              <th scope="col">Kind</th>
              <th scope="col">Expires (UTC)</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.data.map((link) => (
              <tr key={link.id} className="border-t border-zinc-200 dark:border-zinc-800">
                <td>{link.email}</td>
                <td>
                  {link.kind === "invitation" ? `invitation (${link.role})` : "password reset"}
                </td>
                <td>
                  {Date.parse(link.expiresAt) < links.dataUpdatedAt
                    ? "expired"
                    : link.expiresAt.slice(0, 16).replace("T", " ")}
                </td>
                <td className="text-right">
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={withdraw.isPending}
                    onClick={() => withdraw.mutate(link.id)}
                    aria-label={`Withdraw the link for ${link.email}`}
                  >
                    Withdraw
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
