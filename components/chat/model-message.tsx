"use client";

import { memo, useState } from "react";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { BlockedCard } from "@/components/safety/blocked-card";
import { SafetyRatings } from "@/components/safety/safety-ratings";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { useModels } from "@/lib/hooks/use-models";
import { candidateText } from "@/lib/studio/accumulate-response";
import { AnswerFacts } from "@/components/devtools/answer-facts";
import { AnswerTools } from "@/components/devtools/answer-tools";
import { LogprobsView } from "./logprobs-view";
import { AnnotatedAnswer, hasAnnotations } from "./metadata/annotated-answer";
import { AnswerMetadata } from "./metadata/answer-metadata";
import { LogprobsHeatMap } from "./metadata/logprobs-heat-map";
import { PartsView } from "./message-parts";
import { UsageLine } from "./usage-line";
import { useSwitchVersion, VersionSwitcher, type VersionProps } from "./version-switcher";

const FINISH_REASON_TEXT: Record<string, string> = {
  MAX_TOKENS: "Stopped at the output token limit (MAX_TOKENS)",
  SAFETY: "Stopped for safety (SAFETY)",
  RECITATION: "Stopped for recitation (RECITATION)",
  LANGUAGE: "Unsupported language (LANGUAGE)",
  BLOCKLIST: "Blocked by a term list (BLOCKLIST)",
  PROHIBITED_CONTENT: "Prohibited content (PROHIBITED_CONTENT)",
  SPII: "Sensitive personal information (SPII)",
  MALFORMED_FUNCTION_CALL: "Malformed function call (MALFORMED_FUNCTION_CALL)",
  OTHER: "Stopped for another reason (OTHER)",
};

interface ModelMessageProps extends VersionProps {
  message: StoredMessage;
  conversationId: string;
  streaming: boolean;
  isLast: boolean;
  busy: boolean;
  /** A stop was asked and not yet confirmed. */
  stopping?: boolean;
}

/** Whether an answer failed because the conversation's cache is gone (expired, deleted or not the caller's). */
function failedOnDeadCache(message: StoredMessage): boolean {
  return (
    Boolean(message.settings?.cachedContent) &&
    message.error?.status === "PERMISSION_DENIED" &&
    /cachedcontent/i.test(message.error.message)
  );
}

export const ModelMessage = memo(function ModelMessage({
  message,
  conversationId,
  streaming,
  isLast,
  busy,
  stopping,
  versionIndex,
  versionCount,
  previousVersionId,
  nextVersionId,
}: ModelMessageProps) {
  const actions = useChatActions();
  const switchVersion = useSwitchVersion(conversationId);
  // Being generated on the server, not yet joined by this page (it joins at once).
  const elsewhere = !streaming && message.streaming === true;
  const models = useModels();
  const traits = models.data?.find(
    (choice) => choice.model.name === message.settings?.model,
  )?.traits;
  const candidates = message.candidates ?? [];
  const selected = Math.min(message.selectedCandidate ?? 0, Math.max(0, candidates.length - 1));
  const candidate = candidates[selected];
  const parts = candidate?.content?.parts ?? (candidates.length === 0 ? message.content.parts : []);
  const json = message.settings?.generationConfig.responseMimeType === "application/json";
  const promptBlocked = message.promptFeedback?.blockReason;
  // A candidate blocked mid-stream keeps the text produced before the block; the card follows it.
  const candidateBlocked =
    candidate &&
    !streaming &&
    (candidate.finishReason === "SAFETY" ||
      candidate.safetyRatings?.some((rating) => rating.blocked));
  const finishReason = candidate?.finishReason;
  const canAct = !busy && !streaming;
  const adjust =
    canAct && isLast
      ? (category: string, threshold: Parameters<typeof actions.adjustAndRetry>[3]) =>
          void actions.adjustAndRetry(conversationId, message.id, category, threshold)
      : undefined;
  // Cited or grounded text is shown with its spans marked (plain text) unless the reader asks for the formatted answer.
  const annotated =
    !streaming && candidate !== undefined && !candidateBlocked && hasAnnotations(candidate);
  const [showFormatted, setShowFormatted] = useState(false);
  const metadataId = `answer-${message.id}-${selected}`;
  const empty =
    !streaming && !promptBlocked && !candidateBlocked && !message.error && parts.length === 0;

  return (
    <article
      aria-label="Answer"
      aria-busy={streaming || elsewhere}
      className="flex flex-col gap-1 [contain-intrinsic-size:auto_8rem] [content-visibility:auto]"
      data-streaming={streaming || elsewhere ? "true" : undefined}
      data-message-id={message.id}
      data-response-id={message.responseId}
    >
      {candidates.length > 1 && (
        <div role="tablist" aria-label="Candidates" className="flex gap-1">
          {candidates.map((_candidate, index) => (
            <button
              key={index}
              type="button"
              role="tab"
              aria-selected={index === selected}
              disabled={streaming}
              onClick={() => actions.chooseCandidate(conversationId, message.id, index)}
              className={`rounded-md px-2 py-0.5 text-xs ${index === selected ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "border border-zinc-300 dark:border-zinc-700"}`}
            >
              Candidate {index + 1}
            </button>
          ))}
        </div>
      )}
      {promptBlocked && (
        <BlockedCard
          subject="prompt"
          reason={promptBlocked}
          ratings={message.promptFeedback?.safetyRatings}
          settings={message.settings}
          traits={traits}
          onAdjust={adjust}
        />
      )}
      {annotated && (
        <Button
          size="sm"
          variant="ghost"
          className="self-start"
          aria-pressed={showFormatted}
          onClick={() => setShowFormatted(!showFormatted)}
        >
          Formatted answer (without source marks)
        </Button>
      )}
      <div
        role={candidates.length > 1 ? "tabpanel" : undefined}
        aria-label={candidates.length > 1 ? `Candidate ${selected + 1}` : undefined}
        data-answer-text=""
      >
        <PartsView
          parts={
            annotated && !showFormatted
              ? parts.filter((part) => typeof part.text !== "string" || part.thought)
              : parts
          }
          streaming={streaming}
          json={json}
          onFunctionResponse={
            canAct && isLast
              ? (call, response) =>
                  void actions.send(conversationId, [
                    {
                      functionResponse: {
                        ...(call.id ? { id: call.id } : {}),
                        name: call.name,
                        response,
                      },
                    },
                  ])
              : undefined
          }
        />
        {annotated && !showFormatted && (
          <AnnotatedAnswer candidate={candidate} idPrefix={metadataId} />
        )}
      </div>
      {!streaming && <AnswerMetadata candidate={candidate} idPrefix={metadataId} />}
      {(streaming || elsewhere) && parts.length === 0 && !promptBlocked && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {stopping ? "Stopping…" : "Waiting for the first tokens…"}
        </p>
      )}
      {candidateBlocked && (
        <BlockedCard
          subject="answer"
          reason={candidate.finishReason ?? "SAFETY"}
          ratings={candidate.safetyRatings}
          settings={message.settings}
          traits={traits}
          onAdjust={adjust}
        />
      )}
      {empty && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The model returned no answer text
          {finishReason === "MAX_TOKENS" && (message.usageMetadata?.thoughtsTokenCount ?? 0) > 0
            ? ": thinking used the whole output token limit"
            : ""}
          .
        </p>
      )}
      {message.stopped && (
        <p
          className="text-xs font-medium text-amber-800 dark:text-amber-300"
          data-message-status="stopped"
        >
          Stopped — the answer above is partial.
        </p>
      )}
      {message.interrupted && !streaming && (
        <p
          role="status"
          className="text-xs font-medium text-amber-800 dark:text-amber-300"
          data-message-status="interrupted"
        >
          Interrupted — the studio server stopped before this answer was finished; the text above is
          partial. Regenerate to ask again.
        </p>
      )}
      {finishReason && finishReason !== "STOP" && !candidateBlocked && (
        <p
          className="text-xs font-medium text-amber-800 dark:text-amber-300"
          data-finish-reason={finishReason}
        >
          {FINISH_REASON_TEXT[finishReason] ?? finishReason}
        </p>
      )}
      {message.error && (
        <div
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100"
        >
          <p className="font-semibold">
            Error {message.error.code || ""} {message.error.status}
          </p>
          <p className="whitespace-pre-wrap">{message.error.message}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => void actions.regenerate(conversationId, message.id)}
              disabled={!canAct}
            >
              Retry
            </Button>
            {failedOnDeadCache(message) && (
              <Button
                size="sm"
                onClick={() => void actions.continueWithoutCache(conversationId, message.id)}
                disabled={!canAct}
              >
                Continue without the cache
              </Button>
            )}
          </div>
        </div>
      )}
      {!streaming && !elsewhere && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <UsageLine usage={message.usageMetadata} />
          <AnswerFacts message={message} />
          <SafetyRatings ratings={message.promptFeedback?.safetyRatings} subject="Prompt" />
          <SafetyRatings
            ratings={candidate?.safetyRatings}
            subject={candidates.length > 1 ? `Candidate ${selected + 1}` : "Answer"}
          />
          <LogprobsView candidate={candidate} />
          <div className="ml-auto flex items-center gap-1">
            <VersionSwitcher
              index={versionIndex}
              count={versionCount}
              previousId={previousVersionId}
              nextId={nextVersionId}
              disabled={busy}
              subject="answer"
              onSwitch={switchVersion}
            />
            <AnswerTools conversationId={conversationId} message={message} />
            <CopyButton
              text={() => candidateText(candidate) || parts.map((part) => part.text ?? "").join("")}
              label="Copy answer"
            />
            {!actions.isUnsent(message.id) && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => void actions.regenerate(conversationId, message.id)}
                disabled={!canAct}
              >
                Regenerate
              </Button>
            )}
          </div>
          <LogprobsHeatMap candidate={candidate} />
        </div>
      )}
    </article>
  );
});
