"use client";

import type { Candidate, Part } from "@/lib/gemini/types";
import type { StoredMessage } from "@/lib/studio/conversation-schema";
import { SafetyRatings } from "@/components/safety/safety-ratings";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { useChatActions } from "@/lib/hooks/use-chat-actions";
import { candidateText } from "@/lib/studio/accumulate-response";
import { AnswerFacts } from "@/components/devtools/answer-facts";
import { AnswerTools } from "@/components/devtools/answer-tools";
import { LogprobsView } from "./logprobs-view";
import { LogprobsHeatMap } from "./metadata/logprobs-heat-map";
import { UsageLine } from "./usage-line";
import { useSwitchVersion, VersionSwitcher, type VersionProps } from "./version-switcher";

/** Under a finished answer: usage, facts, safety ratings, logprobs, versions and the answer's actions. */
export function AnswerFooter({
  message,
  conversationId,
  candidate,
  subject,
  parts,
  busy,
  canAct,
  versions,
}: {
  message: StoredMessage;
  conversationId: string;
  candidate: Candidate | undefined;
  /** What the candidate's ratings are of: "Answer", or "Candidate 2" among several. */
  subject: string;
  parts: Part[];
  busy: boolean;
  canAct: boolean;
  versions: VersionProps;
}) {
  const actions = useChatActions();
  const switchVersion = useSwitchVersion(conversationId);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <UsageLine usage={message.usageMetadata} />
      <AnswerFacts message={message} />
      <SafetyRatings ratings={message.promptFeedback?.safetyRatings} subject="Prompt" />
      <SafetyRatings ratings={candidate?.safetyRatings} subject={subject} />
      <LogprobsView candidate={candidate} />
      <div className="ml-auto flex items-center gap-1">
        <VersionSwitcher
          index={versions.versionIndex}
          count={versions.versionCount}
          previousId={versions.previousVersionId}
          nextId={versions.nextVersionId}
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
  );
}
