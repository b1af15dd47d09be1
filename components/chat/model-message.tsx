"use client";

import { memo, useState } from "react";
import type { Candidate, Part } from "@/lib/gemini/types";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { BlockedCard } from "@/components/safety/blocked-card";
import { Button } from "@/components/ui/button";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { useModels } from "@/lib/hooks/use-models";
import { AnnotatedAnswer, hasAnnotations } from "./metadata/annotated-answer";
import { AnswerMetadata } from "./metadata/answer-metadata";
import { PartsView, type PartsViewProps } from "./message-parts";
import { AnswerFooter } from "./answer-footer";
import { AnswerError, AnswerNotes } from "./answer-notes";
import type { VersionProps } from "./version-switcher";

interface ModelMessageProps extends VersionProps {
  message: StoredMessage;
  conversationId: string;
  streaming: boolean;
  isLast: boolean;
  busy: boolean;
  /** A stop was asked and not yet confirmed. */
  stopping?: boolean;
}

/** What an answer shows: the chosen candidate and its parts, and whether it is blocked, annotated or empty. */
function answerShape(message: StoredMessage, streaming: boolean) {
  const candidates = message.candidates ?? [];
  const selected = Math.min(message.selectedCandidate ?? 0, Math.max(0, candidates.length - 1));
  const candidate = candidates[selected];
  const parts = candidate?.content?.parts ?? (candidates.length === 0 ? message.content.parts : []);
  const promptBlocked = message.promptFeedback?.blockReason;
  // A candidate blocked mid-stream keeps the text produced before the block; the card follows it.
  const candidateBlocked =
    candidate &&
    !streaming &&
    (candidate.finishReason === "SAFETY" ||
      candidate.safetyRatings?.some((rating) => rating.blocked));
  return {
    candidates,
    selected,
    candidate,
    parts,
    json: message.settings?.generationConfig.responseMimeType === "application/json",
    promptBlocked,
    candidateBlocked,
    finishReason: candidate?.finishReason,
    annotated:
      !streaming && candidate !== undefined && !candidateBlocked && hasAnnotations(candidate),
    empty:
      !streaming && !promptBlocked && !candidateBlocked && !message.error && parts.length === 0,
  };
}

/**
 * An answer of the conversation, streaming or saved: its candidates, blocked cards, text and
 * metadata, notes, error and footer. Its sections stay in one place, in the order the page
 * shows them.
 */
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
  // Being generated on the server, not yet joined by this page (it joins at once).
  const elsewhere = !streaming && message.streaming === true;
  const models = useModels();
  const traits = models.data?.find(
    (choice) => choice.model.name === message.settings?.model,
  )?.traits;
  const {
    candidates,
    selected,
    candidate,
    parts,
    json,
    promptBlocked,
    candidateBlocked,
    finishReason,
    annotated,
    empty,
  } = answerShape(message, streaming);
  const canAct = !busy && !streaming;
  const adjust =
    canAct && isLast
      ? (category: string, threshold: Parameters<typeof actions.adjustAndRetry>[3]) =>
          void actions.adjustAndRetry(conversationId, message.id, category, threshold)
      : undefined;
  const metadataId = `answer-${message.id}-${selected}`;

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
        <CandidateTabs
          count={candidates.length}
          selected={selected}
          disabled={streaming}
          onChoose={(index) => actions.chooseCandidate(conversationId, message.id, index)}
        />
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
      <AnswerText
        candidate={candidate}
        parts={parts}
        annotated={annotated}
        streaming={streaming}
        json={json}
        tab={candidates.length > 1 ? `Candidate ${selected + 1}` : undefined}
        idPrefix={metadataId}
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
      {!streaming && <AnswerMetadata candidate={candidate} idPrefix={metadataId} />}
      {(streaming || elsewhere) && parts.length === 0 && !promptBlocked && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {stopping ? "Stopping…" : "Waiting for the first tokens…"}
        </p>
      )}
      {candidateBlocked && candidate && (
        <BlockedCard
          subject="answer"
          reason={candidate.finishReason ?? "SAFETY"}
          ratings={candidate.safetyRatings}
          settings={message.settings}
          traits={traits}
          onAdjust={adjust}
        />
      )}
      <AnswerNotes
        message={message}
        streaming={streaming}
        empty={empty}
        finishReason={finishReason}
        candidateBlocked={Boolean(candidateBlocked)}
      />
      {message.error && (
        <AnswerError
          message={message}
          error={message.error}
          canAct={canAct}
          onRetry={() => void actions.regenerate(conversationId, message.id)}
          onContinueWithoutCache={() =>
            void actions.continueWithoutCache(conversationId, message.id)
          }
        />
      )}
      {!streaming && !elsewhere && (
        <AnswerFooter
          message={message}
          conversationId={conversationId}
          candidate={candidate}
          subject={candidates.length > 1 ? `Candidate ${selected + 1}` : "Answer"}
          parts={parts}
          busy={busy}
          canAct={canAct}
          versions={{ versionIndex, versionCount, previousVersionId, nextVersionId }}
        />
      )}
    </article>
  );
});

/**
 * The answer's parts. Cited or grounded text is shown with its spans marked (plain text) unless
 * the reader asks for the formatted answer.
 */
function AnswerText({
  candidate,
  parts,
  annotated,
  streaming,
  json,
  tab,
  idPrefix,
  onFunctionResponse,
}: {
  candidate: Candidate | undefined;
  parts: Part[];
  annotated: boolean;
  streaming: boolean;
  json: boolean;
  /** The candidate's tab label when the answer has several. */
  tab: string | undefined;
  idPrefix: string;
  onFunctionResponse: PartsViewProps["onFunctionResponse"];
}) {
  const [showFormatted, setShowFormatted] = useState(false);
  return (
    <>
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
      <div role={tab ? "tabpanel" : undefined} aria-label={tab} data-answer-text="">
        <PartsView
          parts={
            annotated && !showFormatted
              ? parts.filter((part) => typeof part.text !== "string" || part.thought)
              : parts
          }
          streaming={streaming}
          json={json}
          onFunctionResponse={onFunctionResponse}
        />
        {annotated && !showFormatted && candidate && (
          <AnnotatedAnswer candidate={candidate} idPrefix={idPrefix} />
        )}
      </div>
    </>
  );
}

/** The tabs of an answer with several candidates; the chosen one is saved as the answer. */
function CandidateTabs({
  count,
  selected,
  disabled,
  onChoose,
}: {
  count: number;
  selected: number;
  disabled: boolean;
  onChoose(index: number): void;
}) {
  return (
    <div role="tablist" aria-label="Candidates" className="flex gap-1">
      {Array.from({ length: count }, (_candidate, index) => (
        <button
          key={index}
          type="button"
          role="tab"
          aria-selected={index === selected}
          disabled={disabled}
          onClick={() => onChoose(index)}
          className={`rounded-md px-2 py-0.5 text-xs ${index === selected ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "border border-zinc-300 dark:border-zinc-700"}`}
        >
          Candidate {index + 1}
        </button>
      ))}
    </div>
  );
}
