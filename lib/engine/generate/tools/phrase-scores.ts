/**
 * How well a phrase of the prompt fits a parameter (argument-phrases.ts): the parameter's own
 * words just before it, the kind of value the parameter describes (a place, a person, free
 * text, an e-mail address, a URL, a date or a time) against the kind of phrase and the
 * preposition that introduces it.
 */
import type { Phrase } from "./argument-phrases";
import type { ParameterInfo } from "./parameters";
import { nameWords, significantStems, stem } from "./relevance";

const LOCATION_WORDS = new Set(
  "city location place room country region address destination origin town state area where venue airport station zip postcode".split(
    " ",
  ),
);
const PERSON_WORDS = new Set(
  "name person recipient user contact attendee who friend customer author artist owner assignee username".split(
    " ",
  ),
);
const FREE_TEXT_WORDS = new Set(
  "query text message content body prompt question term keyword topic subject title description note search phrase".split(
    " ",
  ),
);
function describes(parameter: ParameterInfo, vocabulary: Set<string>): boolean {
  const words = [...nameWords(parameter.name), ...significantStems(parameter.description, 12)];
  return words.some((word) => vocabulary.has(word) || vocabulary.has(stem(word)));
}

function scorePhrase(
  phrase: Phrase,
  parameter: ParameterInfo,
  own: Set<string>,
  described: Set<string>,
): number {
  const before = phrase.before.map(stem);
  let score = 0;
  if (before.some((word) => own.has(word))) score += 5;
  else if (before.some((word) => described.has(word))) score += 2;
  const location = describes(parameter, LOCATION_WORDS);
  const person = describes(parameter, PERSON_WORDS);
  const freeText = describes(parameter, FREE_TEXT_WORDS);
  switch (phrase.kind) {
    case "quoted":
      score += freeText ? 4 : 2;
      break;
    case "name":
      if (location)
        score +=
          phrase.preposition && !["with", "called", "named"].includes(phrase.preposition) ? 4 : 2;
      else if (person)
        score += phrase.preposition === "with" || phrase.preposition === "to" ? 4 : 3;
      else score += 1.5;
      break;
    case "object":
      if (freeText)
        score += ["for", "about", "on", "called", "named", "titled"].includes(
          phrase.preposition ?? "",
        )
          ? 3
          : 1;
      else if (location)
        score += ["in", "at", "near", "to", "from"].includes(phrase.preposition ?? "") ? 2 : 0.5;
      else score += 1;
      break;
    case "email":
      score +=
        parameter.format === "email" || describes(parameter, new Set(["email", "mail", "address"]))
          ? 8
          : 0;
      break;
    case "url":
      score +=
        parameter.format === "uri" ||
        parameter.format === "url" ||
        describes(parameter, new Set(["url", "link", "uri", "website", "page"]))
          ? 8
          : 0;
      break;
    case "date":
      score +=
        parameter.format === "date" ||
        parameter.format === "date-time" ||
        describes(parameter, new Set(["date", "day", "when"]))
          ? 8
          : 0;
      break;
    case "time":
      score +=
        parameter.format === "time" || describes(parameter, new Set(["time", "hour", "when"]))
          ? 8
          : 0;
      break;
  }
  return score;
}

/** The unused phrase that fits the parameter best, scoring at least `minimum`. */
export function bestPhrase(
  phrases: readonly Phrase[],
  parameter: ParameterInfo,
  own: Set<string>,
  described: Set<string>,
  isUsed: (phrase: Phrase) => boolean,
  minimum: number,
): Phrase | undefined {
  let best: Phrase | undefined;
  let bestScore = minimum - 0.001;
  for (const phrase of phrases) {
    if (isUsed(phrase)) continue;
    const score = scorePhrase(phrase, parameter, own, described);
    if (score > bestScore) {
      best = phrase;
      bestScore = score;
    }
  }
  return best;
}
