"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { useApiKeys, useCreateApiKey } from "@/lib/hooks/use-api-keys";
import type { CodeKey } from "@/lib/studio/get-code";

/**
 * Which of the workspace's keys a snippet for this studio uses, or a new one made here (its
 * secret then goes into the snippet, this once). The key works on the same files and caches
 * as the chat, so a snippet of a chat with attachments runs as it is.
 */
export function CodeKeyPicker({
  value,
  onChange,
}: {
  value: CodeKey | undefined;
  onChange(key: CodeKey | undefined): void;
}) {
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const id = useId();
  const live = (keys.data ?? []).filter((key) => key.revokedAt === null);
  const selected = value
    ? live.find((key) => key.prefix === value.prefix && key.name === value.name)
    : undefined;
  return (
    <div className="flex flex-wrap items-end gap-2 text-sm">
      <label className="flex flex-col gap-1 text-xs font-medium" htmlFor={id}>
        Studio key
        <select
          id={id}
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700"
          value={selected?.id ?? ""}
          onChange={(event) => {
            const key = live.find((item) => item.id === event.target.value);
            onChange(key ? { name: key.name, prefix: key.prefix } : undefined);
          }}
        >
          <option value="">{value?.secret ? `${value.name} (new)` : "No key named"}</option>
          {live.map((key) => (
            <option key={key.id} value={key.id}>
              {key.name} ({key.prefix}…)
            </option>
          ))}
        </select>
      </label>
      <Button
        size="sm"
        disabled={create.isPending}
        onClick={() =>
          create.mutate(
            { name: `Get code ${new Date().toISOString().slice(0, 16).replace("T", " ")}` },
            {
              onSuccess: (created) =>
                onChange({
                  name: created.key.name,
                  prefix: created.key.prefix,
                  secret: created.secret,
                }),
            },
          )
        }
      >
        Create a key for this code
      </Button>
      {value?.secret && (
        <p role="status" className="basis-full text-xs text-emerald-800 dark:text-emerald-300">
          The snippets hold your new key {value.name}: copy them now, it is not shown again.
        </p>
      )}
      {(create.isError || keys.isError) && (
        <p role="alert" className="basis-full text-xs text-red-700 dark:text-red-400">
          {(create.error ?? keys.error)?.message}
        </p>
      )}
    </div>
  );
}
