"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import {
  useApiKeys,
  useCreateApiKey,
  useRevokeApiKey,
  useUpdateApiKey,
} from "@/lib/hooks/use-api-keys";
import type { ApiKeyView } from "@/lib/studio/people";
import { CreatedKeyNotice } from "./created-key-notice";
import { LimitsForm } from "./limits-form";
import {
  KeyLimitsFields,
  describeLimits,
  draftOf,
  limitsOf,
  type LimitsDraft,
} from "./key-limits-fields";

const INPUT =
  "rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700";

/**
 * The workspace's API keys: make one (named, with limits; its secret shown once), see each
 * key's limits and spend, change its limits, revoke it.
 */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [draft, setDraft] = useState<LimitsDraft>(draftOf(null));
  const formId = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { name, limits: limitsOf(draft) },
      {
        onSuccess: () => {
          setName("");
          setDraft(draftOf(null));
        },
      },
    );
  }
  return (
    <section aria-labelledby={`${formId}-heading`} className="flex flex-col gap-3">
      <h2 id={`${formId}-heading`} className="text-base font-semibold">
        API keys
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Programs call this studio with a key (header <code>x-goog-api-key</code>), in this
        workspace: they see the same files and caches as these pages. A key is shown once, when it
        is made; revoking it stops it at once.
      </p>
      <form onSubmit={submit} aria-label="New API key" className="flex flex-col gap-2">
        <label className="flex flex-col gap-1 text-xs font-medium" htmlFor={`${formId}-name`}>
          Name
          <input
            id={`${formId}-name`}
            className={INPUT}
            required
            maxLength={80}
            value={name}
            placeholder="laptop"
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <details>
          <summary className="cursor-pointer text-sm">Limits (optional)</summary>
          <div className="mt-2">
            <KeyLimitsFields draft={draft} onChange={setDraft} idPrefix={`${formId}-limits`} />
          </div>
        </details>
        <div>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create key
          </Button>
        </div>
        {create.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {create.error.message}
          </p>
        )}
      </form>
      {create.data && <CreatedKeyNotice name={create.data.key.name} secret={create.data.secret} />}
      {keys.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {keys.error.message}
        </p>
      )}
      {keys.data && keys.data.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No keys yet.</p>
      )}
      {keys.data && keys.data.length > 0 && (
        <ul aria-label="Keys" className="flex flex-col gap-2">
          {keys.data.map((key) => (
            <KeyItem key={key.id} apiKey={key} />
          ))}
        </ul>
      )}
    </section>
  );
}

function money(amount: number): string {
  return `$${amount < 0.01 && amount > 0 ? amount.toFixed(6) : amount.toFixed(2)}`;
}

function KeyItem({ apiKey }: { apiKey: ApiKeyView }) {
  const revoke = useRevokeApiKey();
  const update = useUpdateApiKey();
  const [editing, setEditing] = useState(false);
  const revoked = apiKey.revokedAt !== null;
  return (
    <li
      aria-label={`Key ${apiKey.name}`}
      className="flex flex-col gap-1 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <strong>{apiKey.name}</strong>
        <code className="text-xs text-zinc-600 dark:text-zinc-400">{apiKey.prefix}…</code>
        {revoked && (
          <span className="rounded-full bg-zinc-200 px-2 text-xs dark:bg-zinc-800">revoked</span>
        )}
        {!revoked && (
          <span className="ml-auto flex gap-1">
            <Button size="sm" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit limits
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={revoke.isPending}
              onClick={() => {
                if (
                  window.confirm(`Revoke the key ${apiKey.name}? Programs using it stop at once.`)
                )
                  revoke.mutate(apiKey.id);
              }}
            >
              Revoke
            </Button>
          </span>
        )}
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{describeLimits(apiKey.limits)}</p>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Today {formatNumber(apiKey.spend.dayTokens)} tokens, {money(apiKey.spend.dayDollars)}; this
        month {formatNumber(apiKey.spend.monthTokens)} tokens, {money(apiKey.spend.monthDollars)}.
        Made {apiKey.createdAt.slice(0, 10)}
        {apiKey.lastUsedAt
          ? `, last used ${apiKey.lastUsedAt.slice(0, 16).replace("T", " ")}`
          : ", never used"}
        .
      </p>
      {editing && (
        <LimitsForm
          label={`Limits of ${apiKey.name}`}
          initial={apiKey.limits}
          idPrefix={`limits-${apiKey.id}`}
          saveLabel="Save limits"
          pending={update.isPending}
          onSave={(limits) =>
            update.mutate({ id: apiKey.id, limits }, { onSuccess: () => setEditing(false) })
          }
        />
      )}
      {update.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {update.error.message}
        </p>
      )}
    </li>
  );
}
