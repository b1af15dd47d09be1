"use client";

import { memo } from "react";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { AnswerContent } from "./answer-content";
import { answerShape } from "./answer-shape";
import { AnswerFooter } from "./answer-footer";
import { AnswerError, AnswerNotes } from "./answer-notes";
import { useAnswerActions } from "./use-answer-actions";
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

/**
 * An answer of the conversation, streaming or saved: what the model gave (answer-content.tsx),
 * then its notes, error and footer, in the order the page shows them. What it shows is
 * answerShape; what can be done to it, useAnswerActions.
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
  // Being generated on the server, not yet joined by this page (it joins at once).
  const elsewhere = !streaming && message.streaming === true;
  const shape = answerShape(message, streaming);
  const { candidates, selected, candidate, parts } = shape;
  const canAct = !busy && !streaming;
  const actions = useAnswerActions(conversationId, message.id, canAct && isLast);

  return (
    <article
      aria-label="Answer"
      aria-busy={streaming || elsewhere}
      className="flex flex-col gap-1 [contain-intrinsic-size:auto_8rem] [content-visibility:auto]"
      data-streaming={streaming || elsewhere ? "true" : undefined}
      data-message-id={message.id}
      data-response-id={message.responseId}
    >
      <AnswerContent
        message={message}
        shape={shape}
        streaming={streaming}
        waiting={streaming || elsewhere}
        stopping={stopping}
        actions={actions}
      />
      <AnswerNotes
        message={message}
        streaming={streaming}
        empty={shape.empty}
        finishReason={shape.finishReason}
        candidateBlocked={Boolean(shape.candidateBlocked)}
      />
      {message.error && (
        <AnswerError
          message={message}
          error={message.error}
          canAct={canAct}
          onRetry={actions.retry}
          onContinueWithoutCache={actions.continueWithoutCache}
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
