"use client";

import { useMemo, useState, type Dispatch, type SetStateAction } from "react";
import { minCacheTokens } from "@/lib/gemini/cache-minimums";
import type { CachedContentCreate, Content, File as WireFile } from "@/lib/gemini/types";
import type { Conversation } from "@/lib/studio/conversation-schema";
import { historyContents } from "@/lib/studio/chat-request";
import { DEFAULT_EXPIRY, expiryFields, type ExpiryChoice } from "@/lib/studio/expiry-input";
import { useConversation, useConversationList } from "./use-conversations";
import { useFiles } from "./use-files";
import { useModels } from "./use-models";
import type { ModelFacts } from "@/lib/studio/model-facts";
import { useTokenCount, type TokenCountInput } from "./use-token-count";

const DEFAULT_CACHE_MODEL = "models/gemini-2.5-flash";

/**
 * The cache a creation form describes: the person's choices (name, model, conversation, files,
 * system instruction, expiry), what they add up to as contents (cacheContents), its size counted
 * as it would be cached against the model's minimum (useCacheSize), and the request body
 * (cacheCreateBody). A conversation chosen from the chat (or in the form) suggests its model and
 * title, once (useConversationSuggestion). Each choice is a state and a setter handed back.
 */
export function useCacheDraft(initialConversationId: string | null) {
  const { cacheModels, activeFiles, filesLoading, conversations } = useCacheSources();
  const [displayName, setDisplayName] = useState("");
  const [model, setModel] = useState(DEFAULT_CACHE_MODEL);
  const [conversationId, setConversationId] = useState<string>(initialConversationId ?? "");
  const [fileNames, setFileNames] = useState<string[]>([]);
  const [systemInstruction, setSystemInstruction] = useState("");
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const conversation = useConversation(conversationId || null);
  const suggestion = useConversationSuggestion(conversation.data, cacheModels, {
    setDisplayName,
    setModel,
  });

  const contents = useMemo(
    () => cacheContents(activeFiles, fileNames, conversation.data),
    [activeFiles, fileNames, conversation.data],
  );
  const system = useMemo(() => systemContent(systemInstruction), [systemInstruction]);
  const { size, minimum, tooSmall } = useCacheSize(model, contents, system);

  return {
    displayName,
    setDisplayName,
    touchDisplayName: suggestion.touch,
    model,
    setModel,
    conversationId,
    setConversationId,
    fileNames,
    setFileNames,
    systemInstruction,
    setSystemInstruction,
    expiry,
    setExpiry,
    cacheModels,
    activeFiles,
    filesLoading,
    conversations,
    conversation,
    size,
    minimum,
    tooSmall,
    nothing: contents.length === 0,
    waitingForConversation: conversationId !== "" && !conversation.data && !conversation.isError,
    /** The create request as the form stands, or why it cannot be made yet. */
    body: () => cacheCreateBody({ model, displayName, contents, system, expiry }),
    /** Every choice back to a fresh form's (after a cache was created from them). */
    reset() {
      setDisplayName("");
      setModel(DEFAULT_CACHE_MODEL);
      setConversationId("");
      setFileNames([]);
      setSystemInstruction("");
      setExpiry(DEFAULT_EXPIRY);
      suggestion.reset();
    },
  };
}

export type CacheDraft = ReturnType<typeof useCacheDraft>;

/** What a cache can be made from: the models that cache, the caller's ACTIVE files, the conversations. */
function useCacheSources() {
  const models = useModels();
  const conversations = useConversationList("");
  const files = useFiles(100);
  const cacheModels = useMemo(
    () =>
      (models.data ?? []).filter((choice) =>
        (choice.model.supportedGenerationMethods ?? []).includes("createCachedContent"),
      ),
    [models.data],
  );
  const activeFiles = useMemo(
    () =>
      (files.data?.pages.flatMap((page) => page.files ?? []) ?? []).filter(
        (file) => file.state === "ACTIVE",
      ),
    [files.data],
  );
  return {
    cacheModels,
    activeFiles,
    filesLoading: files.isPending,
    conversations: conversations.data?.conversations,
  };
}

/**
 * A loaded conversation suggests its title and model, once per conversation. The title goes only
 * into a display name the person has not started on (focused or typed in), so it never lands in
 * front of what they type while the conversation loads. Adjusted while rendering (React's pattern
 * for state that follows loaded data), not in an effect. Returns what marks the name as started,
 * and what forgets both for a fresh form.
 */
function useConversationSuggestion(
  loaded: Conversation | undefined,
  cacheModels: ModelFacts[],
  {
    setDisplayName,
    setModel,
  }: {
    setDisplayName: Dispatch<SetStateAction<string>>;
    setModel: Dispatch<SetStateAction<string>>;
  },
) {
  const [suggestedFor, setSuggestedFor] = useState<string | null>(null);
  const [displayNameTouched, setDisplayNameTouched] = useState(false);
  if (loaded && cacheModels.length && suggestedFor !== loaded.id) {
    setSuggestedFor(loaded.id);
    if (!displayNameTouched) setDisplayName((current) => current || loaded.title.slice(0, 128));
    if (cacheModels.some((choice) => choice.model.name === loaded.settings.model))
      setModel(loaded.settings.model);
  }
  return {
    touch: () => setDisplayNameTouched(true),
    reset: () => {
      setSuggestedFor(null);
      setDisplayNameTouched(false);
    },
  };
}

/** The size of what would be cached, counted as it would be cached, against the model's minimum. */
function useCacheSize(model: string, contents: Content[], system: Content | undefined) {
  const countInput = useMemo<TokenCountInput | null>(
    () =>
      contents.length
        ? { model, request: { contents, ...(system ? { systemInstruction: system } : {}) } }
        : null,
    [model, contents, system],
  );
  const size = useTokenCount(countInput, 500);
  const total = size.result?.totalTokens;
  const minimum = minCacheTokens(model);
  return { size, minimum, tooSmall: total !== undefined && size.current && total < minimum };
}

/** The contents a cache holds: the chosen ACTIVE files as one user turn, then the conversation. */
export function cacheContents(
  activeFiles: WireFile[],
  fileNames: string[],
  conversation: Conversation | undefined,
): Content[] {
  const chosen = activeFiles.filter((file) => fileNames.includes(file.name));
  const result: Content[] = [];
  if (chosen.length)
    result.push({
      role: "user",
      parts: chosen.map((file) => ({ fileData: { mimeType: file.mimeType, fileUri: file.uri } })),
    });
  if (conversation) result.push(...historyContents(conversation.messages));
  return result;
}

function systemContent(systemInstruction: string): Content | undefined {
  return systemInstruction.trim() ? { parts: [{ text: systemInstruction }] } : undefined;
}

/** The create request for the draft's choices, or why it cannot be made yet. */
export function cacheCreateBody({
  model,
  displayName,
  contents,
  system,
  expiry,
}: {
  model: string;
  displayName: string;
  contents: Content[];
  system: Content | undefined;
  expiry: ExpiryChoice;
}): CachedContentCreate | { problem: string } {
  const fields = expiryFields(expiry);
  if ("problem" in fields) return fields;
  const request: CachedContentCreate = { model, ...fields };
  if (displayName.trim()) request.displayName = displayName.trim();
  if (contents.length) request.contents = contents;
  if (system) request.systemInstruction = system;
  return request;
}
