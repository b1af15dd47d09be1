"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { IntentLink } from "@/components/ui/intent-link";
import {
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type ReactNode,
} from "react";
import type {
  AttachmentRecord,
  ConversationSettings,
  StoredMessage,
} from "@/lib/studio/conversation-schema";
import {
  buildGenerateContentRequest,
  historyContents,
  isSpeechOnly,
} from "@/lib/studio/chat-request";
import { TokenCounter, isOverLimit } from "@/components/tokens/token-counter";
import { Button } from "@/components/ui/button";
import { PaperclipIcon } from "@/components/ui/paperclip-icon";
import { ConfirmDialog } from "@/components/ui/dialog";
import { ApiError } from "@/lib/gemini/api-error";
import type { ModelTraits } from "@/lib/gemini/model-traits";
import type { Content, Part } from "@/lib/gemini/types";
import { useCache, cacheQueryOptions } from "@/lib/hooks/use-caches";
import { getFileRequest } from "@/lib/client/file-requests";
import {
  countableRequest,
  useTokenCount,
  type TokenCountInput,
  type TokenCountState,
} from "@/lib/hooks/use-token-count";
import { useUploader } from "@/lib/hooks/use-upload";
import { useChatStore } from "@/lib/stores/chat-store";
import { useQueryClient } from "@tanstack/react-query";
import { AttachmentList } from "./attachment-list";
import { attachmentParts, attachmentRecords, sendBlockReason } from "@/lib/studio/attachment-model";
import { inputsRefusal, type ModelFacts } from "@/lib/studio/model-facts";
import { usePromptIntake } from "./prompt-intake";
import { settingsForCache } from "@/lib/studio/settings-model";
import { ExpiryCountdown, useNow } from "./expiry-countdown";
import {
  InlineImagesToggle,
  UploadDropZone,
  useFilePicker,
  useScopeAttachments,
} from "./upload-drop-zone";

/**
 * The chat composer's attachments, token counter and attached cache: what the chat view
 * needs to send (parts, whether it may send and why not, the over-limit warning) and the UI
 * around its composer (drop zone, attachment cards, the counter, the cache chip).
 */

export interface ChatAttachmentsOptions {
  conversationId: string | null;
  /** Composer key: the conversation id, or the new chat's key. */
  scope: string;
  settings: ConversationSettings;
  /** The model's facts: what it takes (files it cannot are refused before anything is sent). */
  facts: ModelFacts | undefined;
  traits: ModelTraits | undefined;
  messages: readonly StoredMessage[];
  updateSettings(settings: ConversationSettings): void;
}

export interface ChatAttachmentsState {
  options: ChatAttachmentsOptions;
  count: TokenCountState;
  /** Why Send waits (files uploading, PROCESSING or failed), or null. */
  blockReason: string | null;
  /** Attachments not counted yet. */
  uncounted: number;
  /** The prompt's parts: attachments first, then the text. */
  partsFor(text: string): Part[];
  /** What the transcript keeps of each attachment, by part. */
  records(): AttachmentRecord[];
  /** Detaches everything after a send (media sent stay playable in the transcript). */
  clear(): void;
  /**
   * Call before sending: true when the prompt may go now; false when it is blocked, or when
   * it is over the model's input limit and the person must confirm first (a dialog opens).
   */
  confirmSend(text: string): boolean;
  /** The over-limit question waiting for the person's answer, with the prompt it is about. */
  overLimit: { text: string; message: string } | null;
  dismissOverLimit(): void;
  /** Attach button, inline choice, attached cache: for the composer's toolbar row. */
  toolbar: ReactNode;
  /**
   * A paste into the prompt box: files are attached (those the model takes), a long text
   * becomes an attachment to open; anything else is left to the box.
   */
  paste(event: ClipboardEvent<HTMLTextAreaElement>): void;
  /** Files dropped or chosen: those the model cannot take are refused, with why. */
  admit(files: readonly File[]): File[];
  /** What became of the last long paste, for the person (and screen readers). */
  pasteNote: string | null;
}

function userTurn(parts: Part[], text: string): Content | null {
  const all = text.trim() ? [...parts, { text }] : parts;
  return all.length ? { role: "user", parts: all } : null;
}

/** Reads `?attach=files/a,files/b` and `?cache=cachedContents/x` once, for a new chat. */
function useChatLinks(
  options: ChatAttachmentsOptions,
  setAttachProblem: (message: string | null) => void,
): void {
  const uploader = useUploader();
  const queryClient = useQueryClient();
  const handled = useRef(false);
  // Read when the links resolve, after awaits: the chat's scope and settings as they are then.
  const current = useEffectEvent(() => options);
  useEffect(() => {
    if (handled.current || options.conversationId !== null || typeof window === "undefined") return;
    handled.current = true;
    const query = new URLSearchParams(window.location.search);
    const attach = (query.get("attach") ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const cache = query.get("cache");
    if (!attach.length && !cache) return;
    window.history.replaceState(window.history.state, "", window.location.pathname);
    const problems: string[] = [];
    void (async () => {
      for (const name of attach) {
        try {
          uploader.attachExisting(current().scope, await getFileRequest(name));
        } catch (error) {
          problems.push(
            `Could not attach ${name}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      if (cache) {
        try {
          const cached = await queryClient.fetchQuery(cacheQueryOptions(cache));
          const { updateSettings, settings } = current();
          updateSettings(settingsForCache(settings, cached));
        } catch (error) {
          problems.push(
            `Could not use the cache ${cache}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      setAttachProblem(problems.length ? problems.join(" ") : null);
    })();
  }, [options.conversationId, uploader, queryClient, setAttachProblem]);
}

/** The composer's attachments and token count for one chat. */
export function useChatAttachments(options: ChatAttachmentsOptions): ChatAttachmentsState & {
  attachProblem: string | null;
  setAttachProblem(message: string | null): void;
} {
  const { scope, settings, messages, traits } = options;
  const uploader = useUploader();
  const attachments = useScopeAttachments(scope);
  const draft = useChatStore((state) => state.drafts[scope] ?? "");
  const [overLimit, setOverLimit] = useState<{ text: string; message: string } | null>(null);
  const intake = usePromptIntake(scope, options.facts, attachments);
  useChatLinks(options, intake.setProblem);

  const parts = useMemo(() => attachmentParts(attachments), [attachments]);
  // The next request's history: none for speech, which reads only the new prompt.
  const history = useMemo(
    () => (isSpeechOnly(settings) ? [] : historyContents(messages)),
    [settings, messages],
  );
  const input = useMemo<TokenCountInput | null>(() => {
    const turn = userTurn(parts, draft);
    const contents = turn ? [...history, turn] : history;
    if (!contents.length) return null;
    return {
      model: settings.model,
      request: countableRequest(buildGenerateContentRequest(settings, contents)),
    };
  }, [parts, draft, history, settings]);
  const count = useTokenCount(input);
  const blockReason =
    sendBlockReason(attachments) ??
    inputsRefusal(
      options.facts,
      attachments,
      "cannot be sent to it: remove them, or choose a model that takes them",
    );
  const uncounted = attachments.length - parts.length;

  return {
    options,
    count,
    blockReason,
    uncounted,
    attachProblem: intake.problem,
    setAttachProblem: intake.setProblem,
    partsFor: (text) => userTurn(parts, text)?.parts ?? [{ text }],
    records: () => attachmentRecords(attachments),
    clear: () => {
      uploader.clear(scope, { keepMedia: true });
      intake.clearPasteNote();
    },
    confirmSend(text) {
      if (blockReason) return false;
      const total = count.result?.totalTokens;
      // The last count decides, even while a newer one runs: a few typed words rarely bring a
      // request back under the limit, and asking costs one click.
      if (isOverLimit(total, traits?.inputTokenLimit)) {
        setOverLimit({
          text,
          message: `${count.current ? "This request is" : "At the last count, before your latest change, this request was"} ${formatNumber(total!)} tokens; ${settings.model.replace(/^models\//, "")} accepts ${formatNumber(traits!.inputTokenLimit)}. The service will most likely refuse it.`,
        });
        return false;
      }
      return true;
    },
    overLimit,
    dismissOverLimit: () => setOverLimit(null),
    toolbar: <ChatToolbar options={options} />,
    admit: intake.admit,
    paste: intake.paste,
    pasteNote: intake.pasteNote,
  };
}

function AttachButton() {
  const picker = useFilePicker();
  return (
    <Button size="sm" variant="ghost" onClick={picker.open} aria-label="Attach files">
      <PaperclipIcon /> Attach
    </Button>
  );
}

/** The attached cache: its name, size and countdown, and a way to detach it. */
function CacheChip({ options }: { options: ChatAttachmentsOptions }) {
  const name = options.settings.cachedContent ?? null;
  const cache = useCache(name);
  const now = useNow(1000);
  if (!name) return null;
  const gone =
    cache.error instanceof ApiError &&
    (cache.error.httpStatus === 403 || cache.error.httpStatus === 404);
  const mismatch = cache.data && cache.data.model !== options.settings.model;
  const detach = () => {
    const { cachedContent: _detached, ...rest } = options.settings;
    options.updateSettings(rest);
  };
  return (
    <div
      className="flex min-w-0 flex-wrap items-center gap-1 rounded-md bg-violet-100 px-2 py-0.5 text-xs text-violet-950 dark:bg-violet-950/60 dark:text-violet-100"
      aria-label="Attached cache"
      role="group"
    >
      <span className="truncate">
        Cache <span className="font-medium">{cache.data?.displayName || name}</span>
        {cache.data && (
          <>
            {" "}
            · {formatNumber(cache.data.usageMetadata.totalTokenCount)} tokens ·{" "}
            <ExpiryCountdown expireTime={cache.data.expireTime} now={now} />
          </>
        )}
        {gone && (
          <span className="font-medium text-red-700 dark:text-red-300"> · expired or deleted</span>
        )}
        {mismatch && (
          <span className="font-medium text-red-700 dark:text-red-300">
            {" "}
            · made for {cache.data!.model}
          </span>
        )}
      </span>
      <button
        type="button"
        className="underline"
        onClick={detach}
        aria-label={`Detach the cache ${cache.data?.displayName || name}`}
      >
        Detach
      </button>
    </div>
  );
}

function ChatToolbar({ options }: { options: ChatAttachmentsOptions }) {
  return (
    <div className="mr-auto flex min-w-0 flex-wrap items-center gap-2">
      <AttachButton />
      <InlineImagesToggle />
      <CacheChip options={options} />
      {options.conversationId && !options.settings.cachedContent && (
        <IntentLink
          href={`/caches?conversation=${encodeURIComponent(options.conversationId)}`}
          className="text-xs text-zinc-600 underline dark:text-zinc-400"
        >
          Cache this chat…
        </IntentLink>
      )}
    </div>
  );
}

export interface ChatAttachmentsProps {
  state: ChatAttachmentsState & {
    attachProblem: string | null;
    setAttachProblem(message: string | null): void;
  };
  /** Sends the prompt after the person confirmed an over-limit request. */
  onSendAnyway(text: string): void;
  children: ReactNode;
}

/** Around the composer: the drop target, attachment cards, the token counter and the over-limit dialog. */
export function ChatAttachments({ state, onSendAnyway, children }: ChatAttachmentsProps) {
  const { options } = state;
  return (
    <UploadDropZone scope={options.scope} variant="overlay" admit={state.admit}>
      {state.attachProblem && (
        <div
          role="alert"
          className="mb-2 flex items-start gap-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200"
        >
          <span className="flex-1">{state.attachProblem}</span>
          <button
            type="button"
            className="text-xs underline"
            onClick={() => state.setAttachProblem(null)}
          >
            Dismiss
          </button>
        </div>
      )}
      <div className="mb-2">
        <AttachmentList scope={options.scope} compact label="Attachments" />
      </div>
      <p role="status" className="mb-1 text-xs text-zinc-600 empty:hidden dark:text-zinc-400">
        {state.pasteNote}
      </p>
      {children}
      {options.settings.cachedContent &&
      (options.settings.systemInstruction.trim() || options.settings.tools?.length) ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          A cache carries its own system instruction and tools: the service refuses a request that
          sends both. Clear this chat&apos;s system instruction and tools in Settings, or detach the
          cache.
        </p>
      ) : null}
      <TokenCounter
        state={state.count}
        inputLimit={options.traits?.inputTokenLimit}
        modelName={options.settings.model}
        uncounted={state.uncounted}
      />
      <ConfirmDialog
        open={state.overLimit !== null}
        title="Over the model's input limit"
        confirmLabel="Send anyway"
        onCancel={state.dismissOverLimit}
        onConfirm={() => {
          const text = state.overLimit?.text ?? "";
          state.dismissOverLimit();
          onSendAnyway(text);
        }}
      >
        <p>{state.overLimit?.message}</p>
      </ConfirmDialog>
    </UploadDropZone>
  );
}
