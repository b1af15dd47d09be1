"use client";

import { useMemo, useState } from "react";
import { minCacheTokens } from "@/lib/gemini/cache-minimums";
import type { CachedContentCreate, Content } from "@/lib/gemini/types";
import { historyContents } from "@/lib/studio/chat-request";
import { DEFAULT_EXPIRY, expiryFields, type ExpiryChoice } from "@/lib/studio/expiry-input";
import { useConversation, useConversationList } from "./use-conversations";
import { useFiles } from "./use-files";
import { useModels } from "./use-models";
import { useTokenCount, type TokenCountInput } from "./use-token-count";

const DEFAULT_CACHE_MODEL = "models/gemini-2.5-flash";

/**
 * The cache a creation form describes: the person's choices (name, model, conversation, files,
 * system instruction, expiry), what they add up to as contents, its size counted as it would be
 * cached against the model's minimum, and the request body. A conversation chosen from the
 * chat (or in the form) suggests its model and title, once. Long as the form has fields: each
 * choice is a state and a setter handed back.
 */
export function useCacheDraft(initialConversationId: string | null) {
  const models = useModels();
  const conversations = useConversationList("");
  const files = useFiles(100);
  const [displayName, setDisplayName] = useState("");
  const [model, setModel] = useState(DEFAULT_CACHE_MODEL);
  const [conversationId, setConversationId] = useState<string>(initialConversationId ?? "");
  const [fileNames, setFileNames] = useState<string[]>([]);
  const [systemInstruction, setSystemInstruction] = useState("");
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const conversation = useConversation(conversationId || null);

  const cacheModels = useMemo(
    () =>
      (models.data ?? []).filter((choice) =>
        choice.traits.supportedGenerationMethods.includes("createCachedContent"),
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

  // The suggested title goes only into a display name the person has not started on (focused
  // or typed in), so it never lands in front of what they type while the conversation loads.
  // Adjusted while rendering (React's pattern for state that follows loaded data), not in an effect.
  const [suggestedFor, setSuggestedFor] = useState<string | null>(null);
  const [displayNameTouched, setDisplayNameTouched] = useState(false);
  const loaded = conversation.data;
  if (loaded && cacheModels.length && suggestedFor !== loaded.id) {
    setSuggestedFor(loaded.id);
    if (!displayNameTouched) setDisplayName((current) => current || loaded.title.slice(0, 128));
    if (cacheModels.some((choice) => choice.model.name === loaded.settings.model))
      setModel(loaded.settings.model);
  }

  const contents = useMemo<Content[]>(() => {
    const chosen = activeFiles.filter((file) => fileNames.includes(file.name));
    const result: Content[] = [];
    if (chosen.length)
      result.push({
        role: "user",
        parts: chosen.map((file) => ({ fileData: { mimeType: file.mimeType, fileUri: file.uri } })),
      });
    if (conversation.data) result.push(...historyContents(conversation.data.messages));
    return result;
  }, [activeFiles, fileNames, conversation.data]);

  const system = systemInstruction.trim() ? { parts: [{ text: systemInstruction }] } : undefined;
  const countInput = useMemo<TokenCountInput | null>(
    () =>
      contents.length
        ? { model, request: { contents, ...(system ? { systemInstruction: system } : {}) } }
        : null,
    // system is derived from systemInstruction
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model, contents, systemInstruction],
  );
  const size = useTokenCount(countInput, 500);
  const total = size.result?.totalTokens;
  const minimum = minCacheTokens(model);

  /** The create request as the form stands, or why it cannot be made yet. */
  function body(): CachedContentCreate | { problem: string } {
    const fields = expiryFields(expiry);
    if ("problem" in fields) return fields;
    const request: CachedContentCreate = { model, ...fields };
    if (displayName.trim()) request.displayName = displayName.trim();
    if (contents.length) request.contents = contents;
    if (system) request.systemInstruction = system;
    return request;
  }

  return {
    displayName,
    setDisplayName,
    touchDisplayName: () => setDisplayNameTouched(true),
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
    filesLoading: files.isPending,
    conversations: conversations.data?.conversations,
    conversation,
    size,
    minimum,
    tooSmall: total !== undefined && size.current && total < minimum,
    nothing: contents.length === 0,
    waitingForConversation: conversationId !== "" && !conversation.data && !conversation.isError,
    body,
  };
}
