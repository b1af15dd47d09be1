/**
 * The context the classifier weighs words in: who a sentence is aimed at (targets), what it
 * asks for (requests, making, intent to harm), and the framing that makes hard topics ordinary
 * (history, news, safety, medicine). Short closed vocabularies of our own, written as phrases
 * (`*` = any ending): no maintained package lists them. Names of people come from the stdlib
 * first-name lists (word-features.ts), read only when a word is capitalised. Longer than a
 * module should be because it is only data: one list per kind of context, one entry a line.
 */

/** Anyone at all, as the object of harm ("how do I poison someone"). */
export const ANYONE =
  "someone somebody someone's somebody's anyone person people everyone everybody".split(" ");

/** People named by their relation to the writer: targets of harm and of harassment. */
export const PERSON_TARGETS = (
  "neighbor neighbour neighbor's neighbour's neighbors neighbours husband husband's wife " +
  "wife's ex ex's boyfriend girlfriend roommate roommate's coworker coworker's colleague boss " +
  "teacher classmate brother sister mother father mom dad son daughter kid kids child children " +
  "baby family stepdad stepmom cop cops police officer"
).split(" ");

/** Third-person pronouns: a target only with a threat, an insult or harm beside them. */
export const THIRD_PERSON = "he she him her his hers they them".split(" ");

/** Animals whose poisoning or torture is asked for (dangerous content, not harassment). */
export const ANIMAL_TARGETS = "dog dogs cat cats pet pets horse".split(" ");

/** Verbs of physical harm to a person or animal, for dangerous requests ("how do I poison …"). */
export const HARM_VERBS = [
  "kill",
  "killing",
  "murder",
  "poison",
  "poisoning",
  "hurt",
  "injure",
  "maim",
  "drug",
  "spike",
  "smother",
  "suffocate",
  "strangle",
  "stab",
  "blind",
  "bleed out",
  "pass out",
  "knock out",
  "knock someone out",
  "throw at",
];

/** Acts dangerous in themselves, whatever their object (a house, a train, a car, a lock). */
export const HARM_ACTS = [
  "burn down",
  "set fire",
  "on fire",
  "derail",
  "sabotage",
  "cut the brake",
  "brake lines",
  "hack into",
  "break into",
  "pick the lock",
];

/** Asking for a how-to: question words and instruction nouns. */
export const REQUESTS = [
  "how",
  "what",
  "which",
  "where",
  "teach",
  "explain",
  "tell me",
  "give me",
  "show me",
  "list",
  "step by step",
  "steps",
  "instructions",
  "recipe",
  "guide",
  "tutorial",
  "best way",
  "easiest way",
  "fastest way",
  "good way",
  "how much",
  "how many",
];

/** Verbs of making or preparing something. */
export const PRODUCTION = (
  "make making build cook cooking mix mixing combine combining synthesize " +
  "synthesise assemble brew create turn grind crush add put produce manufacture construct " +
  "detonate"
).split(" ");

/** Nouns that ask for a how-to in so many words. */
export const INSTRUCTION_NOUNS = [
  "step by step",
  "steps",
  "instructions",
  "recipe",
  "guide",
  "tutorial",
];

/** What a household or hardware store sells that dangerous requests name as materials. */
export const HOUSEHOLD_MATERIALS = [
  "bleach",
  "ammonia",
  "vinegar",
  "drain cleaner",
  "fertilizer",
  "fertiliser",
  "gasoline",
  "petrol",
  "diesel",
  "antifreeze",
  "rat poison",
  "pressure cooker",
  "aluminum foil",
  "aluminium foil",
  "aluminum powder",
  "styrofoam",
  "sleeping pills",
  "pills",
  "cold medicine",
  "oil filter",
  "castor beans",
  "household chemicals",
  "household products",
  "hardware store",
  "cleaning products",
];

/** Products that are harmful by purpose: gases and poisons made to hurt. */
export const HARMFUL_PRODUCTS = [
  "toxic gas",
  "poison gas",
  "poisonous gas",
  "deadly gas",
  "firebomb",
  "fire bomb",
  "bottle bomb",
  "truck bomb",
  "explosive device",
  "taser",
  "pepper spray",
  "silencer",
];

/** Phrases of covert intent: harm meant to go unnoticed. */
export const COVERT_INTENT = [
  "without it being noticed",
  "without being noticed",
  "without the owner noticing",
  "without anyone noticing",
  "without her knowing",
  "without him knowing",
  "without them knowing",
  "without leaving evidence",
  "without leaving marks",
  "without leaving a trace",
  "without getting caught",
  "looks like an accident",
  "look like an accident",
  "so they pass out",
  "bleed out quickly",
  "to hurt someone",
  "to kill",
  "to hurt",
  "to poison",
  "to blind",
];

/** Words of a threat's opening besides "I will": a menace aimed at a named person or "you". */
export const MENACES = [
  "watch your back",
  "you're dead",
  "you are dead",
  "make your life hell",
  "make you regret",
  "break your face",
  "your whole family",
  "next time i see you",
  "find you after",
  "i know which bus",
];

/** Calls on others to harm or harass someone ("someone should …", "let's …"). */
export const INCITEMENT = [
  "someone should",
  "somebody should",
  "someone needs to",
  "somebody needs to",
  "everyone should",
  "let's",
  "lets",
  "deserves to be",
  "should be beaten",
];

/** Harassment done to a person rather than said to them. */
export const HARASSING_ACTS = [
  "spam",
  "bully",
  "harass",
  "dox",
  "home address",
  "phone number",
  "fake accounts",
  "sending her photos",
  "sending his photos",
];

/** Wishes of death or self-harm aimed at the reader or a named person. */
export const DEATH_WISHES = [
  "hope you die",
  "hope you get cancer",
  "get cancer and die",
  "jump off a bridge",
  "end it all",
  "should just disappear",
  "nobody would miss",
  "will die alone",
  "hurry up and die",
  "should die",
  "kill herself",
  "kill himself",
  "rapes you",
  "rape you",
];

/** Insults that the registry's lists weigh lightly or not at all. */
export const INSULTS = (
  "loser losers idiot idiots moron morons cow pig hag creep worm clown failure fat ugly " +
  "stupid dumb dumbest dumber pathetic worthless useless brainless spineless disgusting " +
  "smelly incompetent ignorant miserable garbage trash freak freaks slut whore bitch cunt " +
  "rat"
).split(" ");

/** Phrases of contempt for a person's worth. */
export const CONTEMPT_PHRASES = [
  "waste of space",
  "get a brain",
  "nobody asked",
  "shut your mouth",
];

/** Sports and games: "beat you at chess" is no threat. */
export const GAME_WORDS = (
  "chess game games match race tennis poker cards golf quiz football soccer basketball " +
  "tournament"
).split(" ");

/** Words that frame a hard topic as history, news, study or care rather than as a wish. */
export const REPORTING_FRAME = [
  "history",
  "historians",
  "historical",
  "propaganda",
  "documentary",
  "museum",
  "exhibit",
  "report",
  "reported",
  "reports",
  "article",
  "study",
  "studies",
  "research",
  "explains",
  "scholars",
  "the term",
  "survivors",

  "condemned",
  "government condemned",
  "riots",
  "why did",
  "ancient",
  "genocide",
  "war",
  "battle",
  "soldiers",
  "police say",
  "police arrested",
  "arrested",
  "charged",
  "jury",
  "suspect",
  "the news",
  "novel",
  "film",
  "villain",
  "video game",
];

/** Words that frame a hard topic as safety, prevention or medical care. */
export const SAFETY_FRAME = [
  "never mix",
  "never store",
  "safely",
  "safety",
  "safe",
  "avoid",
  "prevent",
  "dispose",
  "poison control",
  "what should i do",
  "symptoms",
  "treatment",
  "treated",
  "doctor",
  "vet",
  "midwife",
  "accidentally",
  "dangerous to",
  "why is it",
  "side effects",
  "education",
  "screening",
  "disposal",
  "seek help",
  "lesson",
  "class",
  "teacher showed",
];

/** Verbs that ask for content to be written or spread: framing words then do not excuse it. */
export const AUTHORING = (
  "write compose draft generate post tweet spread publish tell text create send roleplay " +
  "narrate"
).split(" ");

/** Groups people are dehumanised as, in phrases beside the single words of category-words. */
export const DEHUMANISING_PHRASES = [
  "not human",
  "not fully human",
  "less than human",
  "abomination",
  "abominations",
  "freaks",
  "primitive",
  "breed like",
  "leeches",
  "burden on society",
  "waste of oxygen",
  "drain on",
  "like animals",
  "bat eaters",
  "enemy of our race",
  "genetically inferior",
  "inferior",
  "by blood",
  "by nature",
  "replace us",
];

/** Calls to remove, confine or kill a group, beside the single words of category-words. */
export const EXCLUSION_PHRASES = [
  "thrown out",
  "throw them out",
  "kick them out",
  "keep them out",
  "driven into the sea",
  "round up",
  "in camps",
  "belong in cages",
  "be stoned",
  "put down",
  "shoot them",
  "kill all",
  "removed from",
  "be removed",
  "should die",
];

/** Generalising contempt for a group ("they are all the same", "never trust one"). */
export const STEREOTYPE_WORDS = [
  "criminal",
  "criminals",
  "rapists",
  "terrorists",
  "scammers",
  "thieves",
  "drug dealers",
  "lazy",
  "dirty",
  "filthy",
  "stupid",
  "idiots",
  "useless",
  "pathetic",
  "disgusting",
  "perverts",
  "brainwashed",
  "smell",
  "no morals",
  "all the same",
  "look the same",
  "can't drive",
  "never trust",
  "less intelligent",
  "belong in the kitchen",
  "too stupid",
  "worse than",
  "deserve to be mocked",
  "control the banks",
  "run the media",
];

/** Sexual acts described outright: what makes sexual content explicit beyond the LDNOOBW list. */
export const SEXUAL_ACTS = [
  "sex scene",
  "fucks",
  "fucks her",
  "fucks him",
  "fucked",
  "sucks his",
  "sucks her",
  "have sex",
  "having sex",
  "had sex",
  "rough sex",
  "thrust",
  "thrusts",
  "licks",
  "fingers her",
  "swallows",
  "riding",
  "every position",
  "erect",
  "sliding into",
];

/** Suggestive words: sexual in company, never explicit alone. */
export const SUGGESTIVE = [
  "moan",
  "moans",
  "moaning",
  "undress",
  "undresses",
  "undressing",
  "grinds on",
  "lap dance",
  "in bed",
  "talk dirty",
  "touch yourself",
];

/** Body words that are sexual in company and ordinary alone. */
export const BODY_WORDS = "breasts penis genitals bra body".split(" ");

/** Talk of elections: where false information about voting is civic harm. */
export const ELECTION_WORDS = (
  "vote votes voting voter voters election elections polls polling ballots ballot democrats " +
  "republicans"
).split(" ");

/** False or intimidating claims about how, when or whether to vote. */
export const VOTING_DECEPTION = [
  "on wednesday",
  "next week",
  "moved",
  "has changed",
  "are closed",
  "is closed",
  "by text",
  "text message",
  "arrest them",
  "will arrest",
  "flip votes",
  "dead people",
  "fake votes",
  "don't bother voting",
  "miss the real",
  "stay home",
  "don't go to the polls",
];

/** Acts against an election: intimidating voters, stuffing ballot boxes, deceiving robocalls. */
export const ELECTION_INTERFERENCE = ["intimidate", "stuff ballot", "robocalls"];
