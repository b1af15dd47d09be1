"use client";

import { useState } from "react";
import type { Candidate, Part } from "@/lib/gemini/types";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { BlockedCard } from "@/components/safety/blocked-card";
import { Button } from "@/components/ui/button";
import { useModels } from "@/lib/hooks/use-models";
import { AnnotatedAnswer } from "./metadata/annotated-answer";
import { AnswerMetadata } from "./metadata/answer-metadata";
import { PartsView, type PartsViewProps } from "./message-parts";
import type { AnswerShape } from "./answer-shape";
import type { AnswerActions } from "./use-answer-actions";

/**
 * What the model gave, or why it gave nothing, in the order the page shows it: the candidate
 * tabs, a blocked prompt's card, the text and its metadata, the wait for the first tokens, a
 * blocked answer's card.
 */
export function AnswerContent({
  message,
  shape,
  streaming,
  waiting,
  stopping,
  actions,
}: {
  message: StoredMessage;
  shape: AnswerShape;
  streaming: boolean;
  /** Being generated, here or on the server. */
  waiting: boolean;
  stopping?: boolean;
  actions: AnswerActions;
}) {
  const models = useModels();
  const traits = models.data?.find(
    (choice) => choice.model.name === message.settings?.model,
  )?.traits;
  const { candidates, selected, candidate, parts, promptBlocked, candidateBlocked } = shape;
  const metadataId = `answer-${message.id}-${selected}`;
  return (
    <>
      {candidates.length > 1 && (
        <CandidateTabs
          count={candidates.length}
          selected={selected}
          disabled={streaming}
          onChoose={actions.chooseCandidate}
        />
      )}
      {promptBlocked && (
        <BlockedCard
          subject="prompt"
          reason={promptBlocked}
          ratings={message.promptFeedback?.safetyRatings}
          settings={message.settings}
          traits={traits}
          onAdjust={actions.adjust}
        />
      )}
      <AnswerText
        candidate={candidate}
        parts={parts}
        annotated={shape.annotated}
        streaming={streaming}
        json={shape.json}
        tab={candidates.length > 1 ? `Candidate ${selected + 1}` : undefined}
        idPrefix={metadataId}
        onFunctionResponse={actions.respond}
      />
      {!streaming && <AnswerMetadata candidate={candidate} idPrefix={metadataId} />}
      {waiting && parts.length === 0 && !promptBlocked && (
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
          onAdjust={actions.adjust}
        />
      )}
    </>
  );
}

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
