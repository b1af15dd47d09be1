/**
 * The training text the local language model ships with: original prose written for this
 * project (no third-party text), as answer-like documents on everyday and technical topics,
 * plus a smaller set of thought-style documents for thinking models.
 */
import { answersCooking } from "./texts/cooking-and-home";
import { answersNature } from "./texts/science-and-nature";
import { answersTechnology } from "./texts/software-and-computing";
import { answersTravel } from "./texts/travel-and-places";
import { answersLiving } from "./texts/work-money-and-health";
import { answersCulture } from "./texts/history-and-culture";
import { answersConversation } from "./texts/conversation";
import { answersStructured } from "./texts/structured-answers";
import { answersEveryday } from "./texts/everyday-questions";
import { answersIdeas } from "./texts/ideas-and-explanations";
import { thoughts } from "./texts/thoughts";

export type CorpusKind = "answer" | "thought";

export interface CorpusDocument {
  kind: CorpusKind;
  text: string;
  /** The text file it comes from (`science-and-nature`): the document set grounding cites. */
  topic: string;
}

const SEPARATOR = /\n-{3,}\n/;

function split(kind: CorpusKind, source: string, topic: string): CorpusDocument[] {
  return source
    .split(SEPARATOR)
    .map((text) => text.trim())
    .filter((text) => text.length > 0)
    .map((text) => ({ kind, text, topic }));
}

/** Every corpus document, answers first. */
export function corpusDocuments(): CorpusDocument[] {
  return [
    ...split("answer", answersConversation, "conversation"),
    ...split("answer", answersCooking, "cooking-and-home"),
    ...split("answer", answersNature, "science-and-nature"),
    ...split("answer", answersTechnology, "software-and-computing"),
    ...split("answer", answersTravel, "travel-and-places"),
    ...split("answer", answersLiving, "work-money-and-health"),
    ...split("answer", answersCulture, "history-and-culture"),
    ...split("answer", answersStructured, "structured-answers"),
    ...split("answer", answersEveryday, "everyday-questions"),
    ...split("answer", answersIdeas, "ideas-and-explanations"),
    ...split("thought", thoughts, "thoughts"),
  ];
}
