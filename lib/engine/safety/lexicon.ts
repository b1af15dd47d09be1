/**
 * The safety classifier's documented trigger terms: each rates its level wherever it appears
 * (whole words or phrases, case-insensitive, `*` = any word ending), whatever else the
 * classifier finds. README.md beside this file lists them for people who need to trigger a level.
 */
import type { SupportedHarmCategory } from "@/lib/gemini/types";

export type RatedLevel = "LOW" | "MEDIUM" | "HIGH";

export const LEXICON: Record<SupportedHarmCategory, Record<RatedLevel, string[]>> = {
  HARM_CATEGORY_HARASSMENT: {
    LOW: ["silly fool", "nitwit", "dimwit", "bonehead"],
    MEDIUM: ["you are worthless", "pathetic loser", "nobody likes you", "shut up, idiot"],
    HIGH: ["i will hunt you down", "i know where you live", "you deserve to suffer"],
  },
  HARM_CATEGORY_HATE_SPEECH: {
    LOW: ["those people are all the same", "go back where you came from"],
    MEDIUM: ["inferior race", "subhuman", "vermin people"],
    HIGH: ["ethnic cleansing", "exterminate them all", "racial purge"],
  },
  HARM_CATEGORY_SEXUALLY_EXPLICIT: {
    LOW: ["flirty", "seductive", "lingerie"],
    MEDIUM: ["nude photo*", "erotic", "naked body"],
    HIGH: ["explicit sex", "porn*", "xxx"],
  },
  HARM_CATEGORY_DANGEROUS_CONTENT: {
    LOW: ["lock picking", "pick a lock", "fireworks at home"],
    MEDIUM: ["make a weapon", "homemade explosive*", "untraceable gun"],
    HIGH: ["build a bomb", "make a bomb", "synthesize nerve agent", "make methamphetamine"],
  },
  HARM_CATEGORY_CIVIC_INTEGRITY: {
    LOW: ["election", "ballot", "polling station"],
    MEDIUM: ["voter fraud", "stolen election", "stop the count"],
    HIGH: ["rig the election", "fake ballots", "voter suppression plan"],
  },
};
