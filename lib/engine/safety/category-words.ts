/**
 * What the registry's word lists do not say, and the classifier needs: which of their words
 * are slurs against a group (hate speech rather than profanity), and the small closed
 * vocabularies no maintained package offers: the groups hate speech targets, dehumanising
 * words, threats' verbs, and the subjects and instruction words of dangerous requests.
 * Every slur here is an entry of `cuss` (checked by safety.test.ts): this file classifies
 * the package's words, it does not add its own.
 */

/** Slurs against a religion, ethnicity, nationality, sexuality or gender identity (all in `cuss`). */
export const SLURS = [
  "christ killer",
  "christ killers",
  "heeb",
  "hymie",
  "kike",
  "kikes",
  "kyke",
  "yid",
  "shylock",
  "raghead",
  "ragheads",
  "towelhead",
  "towel head",
  "sand nigger",
  "camel jockey",
  "diaper head",
  "moslem",
  "kaffir",
  "kafir",
  "kuffar",
  "nigger",
  "niggers",
  "nigga",
  "niggas",
  "coon",
  "coons",
  "darkie",
  "darky",
  "jigaboo",
  "porch monkey",
  "spearchucker",
  "sambo",
  "spic",
  "spics",
  "wetback",
  "wetbacks",
  "beaner",
  "beaners",
  "chink",
  "chinks",
  "gook",
  "slanteye",
  "paki",
  "pakis",
  "dothead",
  "polack",
  "krauts",
  "redskin",
  "faggot",
  "fagot",
  "dyke",
  "tranny",
  "trannie",
  "lesbo",
  "retard",
  "retarded",
];

/** Groups hate speech is aimed at (religions, peoples, sexualities, gender, disability). */
export const GROUPS = (
  "muslim muslims islam islamic jew jews jewish judaism christian christians christianity " +
  "catholic catholics protestant protestants hindu hindus hinduism sikh sikhs buddhist " +
  "buddhists mormon mormons atheist atheists arab arabs black blacks white whites asian " +
  "asians african africans mexican mexicans latino latinos latinas hispanic hispanics " +
  "chinese indian indians immigrant immigrants refugee refugees migrant migrants gay gays " +
  "lesbian lesbians homosexual homosexuals bisexual transgender trans queer women woman " +
  "men disabled roma gypsies gypsy"
)
  .split(" ")
  .concat(["old people", "the elderly"]);

/** Words that deny a group's humanity; with a group, hate speech at its highest. */
export const DEHUMANISING = (
  "vermin subhuman subhumans animals animal parasites parasite rats rat cockroaches " +
  "cockroach plague infestation filth savages savage scum apes monkeys pigs dogs disease " +
  "diseased invaders"
).split(" ");

/** Calls to remove or destroy a group. */
export const EXCLUSION = (
  "exterminate exterminated extermination eliminate deport deported expel banned ban purge " +
  "eradicate wipe gas gassed kill killed slaughter burn"
).split(" ");

/** Verbs of contempt for a group ("I hate …"). */
export const HATE_VERBS = "hate hates despise despises loathe loathes detest detests".split(" ");

/** Second-person words: harassment is aimed at someone. */
export const SECOND_PERSON = "you your you're youre yourself u ur ya".split(" ");

/** First-person openings of a threat ("I will …", "I'm going to …"). */
export const FIRST_PERSON = "i i'll ill i'm im we we'll we're".split(" ");

/** Verbs of violence against a person, for threats. */
export const VIOLENT_VERBS = (
  "hurt kill murder beat stab shoot punch strangle choke break destroy burn rape hunt " +
  "torture slap smash end bury cut slash beaten"
).split(" ");

/** Phrases that wish harm on the reader. */
export const HARM_WISHES = [
  "kill yourself",
  "go die",
  "you should die",
  "hope you die",
  "you deserve to die",
  "drop dead",
];

/** Subjects whose how-to is dangerous whatever the reason (alone: LOW; with instructions: HIGH). */
export const DANGEROUS_SUBJECTS = [
  "pipe bomb",
  "nail bomb",
  "dirty bomb",
  "car bomb",
  "explosive device",
  "improvised explosive",
  "ied",
  "napalm",
  "thermite",
  "semtex",
  "molotov",
  "molotov cocktail",
  "detonator",
  "nerve agent",
  "nerve gas",
  "sarin",
  "ricin",
  "anthrax",
  "mustard gas",
  "chlorine gas",
  "bioweapon",
  "biological weapon",
  "chemical weapon",
  "methamphetamine",
  "ghost gun",
];

/** Subjects that are ordinary words alone and dangerous with instructions (then HIGH). */
export const DANGEROUS_WITH_INSTRUCTIONS = [
  "bomb",
  "bombs",
  "explosive",
  "explosives",
  "grenade",
  "meth",
  "fentanyl",
  "heroin",
  "cocaine",
  "poison",
  "cyanide",
  "tnt",
];

/** Weapons and intrusion tools: MEDIUM with instructions, nothing alone. */
export const WEAPONS = [
  "gun",
  "guns",
  "firearm",
  "rifle",
  "pistol",
  "silencer",
  "suppressor",
  "untraceable",
  "ammunition",
  "weapon",
  "weapons",
  "malware",
  "ransomware",
  "keylogger",
];

/** Words that make sexual content explicit. */
export const EXPLICIT_INTENSIFIERS = (
  "graphic graphically explicit explicitly detailed hardcore steamy nsfw uncensored filthy " +
  "pornographic raunchy dirty"
)
  .split(" ")
  .concat(["in detail"]);

/** Words that ask for content to be produced. */
export const REQUEST_VERBS = "write describe tell show generate give narrate create".split(" ");

/**
 * Words of the explicit-content list that are ordinary in most texts ("sex" of an animal,
 * "sexual" health): they count half until an intensifier or another term joins them.
 */
export const MILD_EXPLICIT = (
  "sex sexual sexuality sexy nude nudity naked erotic topless intercourse lovemaking " +
  "undressing nipple nipples genitals"
).split(" ");

/** Entries of the explicit-content list that are not sexual in ordinary use, left out. */
export const NOT_EXPLICIT = [
  "suck",
  "sucks",
  "domination",
  "escort",
  "butt",
  "xx",
  "tied up",
  "girl on",
  "taste my",
  "tongue in a",
  "hot chick",
  "huge fat",
  "big black",
  "tight white",
  "jelly donut",
  "eunuch",
  "cialis",
  "viagra",
  "santorum",
  "how to kill",
  "how to murder",
  "white power",
  "neonazi",
  "swastika",
  "spastic",
  "mong",
  "god damn",
  "apeshit",
  "bastard",
  "bastardo",
  "bitch",
  "bitches",
  "shit",
  "shitty",
  "piece of shit",
  "bullshit",
  "fuck",
  "fuckin",
  "fucking",
  "motherfucker",
  "clusterfuck",
  "fucktards",
  "asshole",
  "arsehole",
  "tosser",
  "wank",
  "poop chute",
  "poopchute",
  "goodpoop",
  "dingleberry",
  "dingleberries",
  "bung hole",
  "bunghole",
];
