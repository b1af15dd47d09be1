"use client";

import { Field, inputClassName } from "@/components/ui/field";
import type { CacheDraft } from "@/lib/hooks/use-cache-draft";
import { ActiveFilesField, CacheModelField, ConversationField } from "./cache-source-fields";
import { ExpiryFields } from "./expiry-fields";

/**
 * The choices of a cache being created: display name, model, conversation, files, system
 * instruction and expiry (`expiryProblem`: why the expiry given cannot be used).
 */
export function CacheDraftFields({
  draft,
  expiryProblem,
}: {
  draft: CacheDraft;
  expiryProblem: string | null;
}) {
  const { conversation } = draft;
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Display name" hint="Up to 128 characters.">
          {(props) => (
            <input
              {...props}
              className={inputClassName}
              value={draft.displayName}
              maxLength={200}
              onFocus={draft.touchDisplayName}
              onChange={(event) => draft.setDisplayName(event.target.value)}
            />
          )}
        </Field>
        <CacheModelField
          model={draft.model}
          cacheModels={draft.cacheModels}
          onChange={draft.setModel}
        />
        <ConversationField
          conversationId={draft.conversationId}
          conversations={draft.conversations}
          chosenTitle={conversation.data?.title}
          loadError={conversation.isError ? conversation.error : null}
          onChange={draft.setConversationId}
        />
        <ActiveFilesField
          loading={draft.filesLoading}
          activeFiles={draft.activeFiles}
          fileNames={draft.fileNames}
          onChange={draft.setFileNames}
        />
      </div>
      <Field
        label="System instruction"
        hint="Cached with the contents; chats that use the cache cannot send their own."
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            className={inputClassName}
            value={draft.systemInstruction}
            onChange={(event) => draft.setSystemInstruction(event.target.value)}
          />
        )}
      </Field>
      <ExpiryFields value={draft.expiry} onChange={draft.setExpiry} problem={expiryProblem} />
    </>
  );
}
