"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useSession, useSwitchWorkspace } from "@/lib/hooks/use-session";
import { usePeople, useResetPassword, useUpdatePerson } from "@/lib/hooks/use-people";
import { personOwnerId, type PersonView } from "@/lib/studio/people";
import { IssuedLinkNotice } from "./issued-link-notice";
import { describeLimits } from "./key-limits-fields";
import { LimitsForm } from "./limits-form";

/** Everyone with an account, and what an admin may do to each. */
export function PeopleSection() {
  const people = usePeople();
  const reset = useResetPassword();
  return (
    <section aria-labelledby="people-heading" className="flex flex-col gap-3">
      <h2 id="people-heading" className="text-base font-semibold">
        People
      </h2>
      {people.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {people.error.message}
        </p>
      )}
      {reset.data && <IssuedLinkNotice issued={reset.data} />}
      {reset.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {reset.error.message}
        </p>
      )}
      <ul aria-label="People" className="flex flex-col gap-2">
        {people.data?.map((person) => (
          <PersonItem key={person.id} person={person} onReset={() => reset.mutate(person.id)} />
        ))}
      </ul>
    </section>
  );
}

function PersonItem({ person, onReset }: { person: PersonView; onReset(): void }) {
  const session = useSession();
  const update = useUpdatePerson();
  const switchWorkspace = useSwitchWorkspace();
  const [editing, setEditing] = useState(false);
  const self = session.data?.person?.id === person.id;
  return (
    <li
      aria-label={`${person.name} <${person.email}>`}
      className="flex flex-col gap-1 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <strong>{person.name}</strong>
        <span className="text-zinc-600 dark:text-zinc-400">{person.email}</span>
        <span className="rounded-full bg-zinc-200 px-2 text-xs dark:bg-zinc-800">
          {person.role}
        </span>
        {person.disabled && (
          <span className="rounded-full bg-red-100 px-2 text-xs text-red-900 dark:bg-red-950 dark:text-red-200">
            disabled
          </span>
        )}
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Keys may have at most: {describeLimits(person.allowance)}
      </p>
      <div className="flex flex-wrap gap-1">
        <Button
          size="sm"
          onClick={() => switchWorkspace.mutate(personOwnerId(person.id))}
          disabled={self || switchWorkspace.isPending}
        >
          Open workspace
        </Button>
        {!self && (
          <>
            <Button
              size="sm"
              disabled={update.isPending}
              onClick={() =>
                update.mutate({ id: person.id, role: person.role === "admin" ? "member" : "admin" })
              }
            >
              {person.role === "admin" ? "Make member" : "Make admin"}
            </Button>
            <Button
              size="sm"
              variant={person.disabled ? "secondary" : "danger"}
              disabled={update.isPending}
              onClick={() => update.mutate({ id: person.id, disabled: !person.disabled })}
            >
              {person.disabled ? "Enable" : "Disable"}
            </Button>
            <Button
              size="sm"
              onClick={() => {
                if (
                  window.confirm(
                    `Reset the password of ${person.email}? Their password and sessions stop now; you get a link to pass on.`,
                  )
                )
                  onReset();
              }}
            >
              Reset password
            </Button>
          </>
        )}
        <Button size="sm" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          Key allowance
        </Button>
      </div>
      {update.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {update.error.message}
        </p>
      )}
      {editing && (
        <LimitsForm
          label={`Key allowance of ${person.email}`}
          initial={person.allowance}
          idPrefix={`allowance-${person.id}`}
          saveLabel="Save allowance"
          pending={update.isPending}
          onSave={(allowance) =>
            update.mutate({ id: person.id, allowance }, { onSuccess: () => setEditing(false) })
          }
        />
      )}
    </li>
  );
}
