"use client";

import { Field, inputClassName } from "@/components/ui/field";
import type { File as WireFile } from "@/lib/gemini/types";
import type { ModelFacts } from "@/lib/studio/model-facts";
import { formatBytes } from "@/lib/studio/attachment-model";
import type { ConversationSearchResult } from "@/lib/studio/conversation-schema";

/** The fields of the cache form that say what is cached and for which model. */

/** The models that can hold caches; one no longer listed stays shown so it can be changed. */
export function CacheModelField({
  model,
  cacheModels,
  onChange,
}: {
  model: string;
  cacheModels: ModelFacts[];
  onChange(model: string): void;
}) {
  return (
    <Field label="Model" hint="A cache can only be used with the model it was made for.">
      {(props) => (
        <select
          {...props}
          className={inputClassName}
          value={model}
          onChange={(event) => onChange(event.target.value)}
        >
          {!cacheModels.some((choice) => choice.model.name === model) && (
            <option value={model}>{model.replace(/^models\//, "")}</option>
          )}
          {cacheModels.map((choice) => (
            <option key={choice.model.name} value={choice.model.name}>
              {choice.model.displayName ?? choice.model.name} (
              {choice.model.name.replace(/^models\//, "")})
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The conversation whose messages are cached; one chosen outside the list (from a chat) stays shown. */
export function ConversationField({
  conversationId,
  conversations,
  chosenTitle,
  loadError,
  onChange,
}: {
  conversationId: string;
  conversations: ConversationSearchResult[] | undefined;
  chosenTitle: string | undefined;
  loadError: Error | null;
  onChange(conversationId: string): void;
}) {
  return (
    <Field
      label="Conversation"
      hint={
        loadError
          ? `Could not load it: ${loadError.message}`
          : "Its messages become the cached contents."
      }
    >
      {(props) => (
        <select
          {...props}
          className={inputClassName}
          value={conversationId}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">None</option>
          {conversationId && !conversations?.some((item) => item.id === conversationId) && (
            <option value={conversationId}>{chosenTitle ?? conversationId}</option>
          )}
          {(conversations ?? []).map((item) => (
            <option key={item.id} value={item.id}>
              {item.title}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The caller's ACTIVE files, each a checkbox; only ACTIVE files can be cached. */
export function ActiveFilesField({
  loading,
  activeFiles,
  fileNames,
  onChange,
}: {
  loading: boolean;
  activeFiles: WireFile[];
  fileNames: string[];
  onChange(update: (names: string[]) => string[]): void;
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        Files (ACTIVE)
      </legend>
      {loading ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Loading files…</p>
      ) : activeFiles.length === 0 ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          No ACTIVE files. Upload some on the Files page.
        </p>
      ) : (
        <ul className="max-h-32 overflow-y-auto text-sm">
          {activeFiles.map((file) => (
            <li key={file.name}>
              <label className="inline-flex items-center gap-1.5">
                <input
                  type="checkbox"
                  checked={fileNames.includes(file.name)}
                  onChange={(event) =>
                    onChange((names) =>
                      event.target.checked
                        ? [...names, file.name]
                        : names.filter((name) => name !== file.name),
                    )
                  }
                />
                {file.displayName || file.name}
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  {file.mimeType} · {formatBytes(Number(file.sizeBytes))}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
