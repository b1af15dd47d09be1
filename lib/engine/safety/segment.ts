/**
 * What one segment (a sentence, or at most 40 words) shows, per category: the words and
 * phrases found in it (word-features.ts) are gathered as they come, then judged together in
 * `settle`, so a word counts by the company it keeps: who the sentence is aimed at, what it
 * asks for, and whether it reports or warns rather than wishes. README.md has the rules.
 */
import type { SupportedHarmCategory } from "@/lib/gemini/types";
import type { WordFeature } from "./word-features";

export type CategoryLevels = Record<SupportedHarmCategory, number>;

/** How many framing words excuse a hard topic entirely (one lowers it two levels). */
const FRAME_EXCUSES = 2;

export class Segment {
  words = 0;
  directed = false;
  named = false;
  insults = 0;
  /** Insult points of words that insult in themselves (profane, or our insult list). */
  strongInsults = 0;
  threat = false;
  /** Word index of the last first-person word and of a violent verb after it. */
  firstPersonAt = -100;
  violentAt = -100;
  violent = false;
  groups = 0;
  slurs = 0;
  hostility = 0;
  contempt = false;
  dehumanising = false;
  exclusion = false;
  stereotypes = 0;
  explicit = 0;
  /** An explicit term or act, not only suggestive or ordinary words: needed for HIGH. */
  outright = false;
  intensifiers = 0;
  requested = false;
  danger = 0;
  instructions = false;
  anyone = false;
  persons = false;
  thirdPersons = false;
  animals = false;
  harmVerb = false;
  harmAct = false;
  request = false;
  production = false;
  household = false;
  harmfulProduct = false;
  covert = false;
  menace = false;
  incitement = false;
  harassingAct = false;
  deathWish = false;
  game = false;
  frames = 0;
  authoring = false;
  election = false;
  votingDeception = false;
  electionInterference = false;

  apply(feature: WordFeature): void {
    const at = this.words;
    if (feature.secondPerson) {
      this.directed = true;
      if (this.violentAt >= 0 && at - this.violentAt <= 4) this.threat = true;
    }
    if (feature.firstPerson) this.firstPersonAt = at;
    if (feature.violentVerb) {
      this.violent = true;
      if (at - this.firstPersonAt <= 5) this.violentAt = at;
    }
    if (feature.harmWish) this.threat = true;
    if (feature.slur) this.slurs += 1;
    if (feature.group) this.groups += 1;
    if (feature.hateVerb) this.contempt = true;
    if (feature.dehumanising) this.dehumanising = true;
    if (feature.exclusion) this.exclusion = true;
    if (feature.stereotype) this.stereotypes += 1;
    if (feature.explicit) this.explicit += feature.explicit;
    if (feature.sexualAct) this.explicit += 2.5;
    if (feature.suggestive) this.explicit += 1.25;
    if (feature.body) this.explicit += 0.75;
    if ((feature.explicit ?? 0) >= 1.5 || feature.sexualAct) this.outright = true;
    if (feature.intensifier) this.intensifiers += 1;
    if (feature.requestVerb) this.requested = true;
    if (feature.danger) this.danger = Math.max(this.danger, feature.danger);
    if (feature.instruction) this.instructions = true;
    this.applyContext(feature);
    // Insults: words that surely insult (profane, per cuss, or our insult list) weigh fully;
    // merely negative words (afinn) weigh half, so "lost devices and mistakes" is no insult.
    // Violent verbs count only in threats ("kill the process" insults nobody).
    const insulting = !feature.explicit || feature.insult !== undefined;
    if (!feature.slur && insulting && !feature.group && !feature.violentVerb) {
      const negative =
        feature.valence !== undefined && feature.valence <= -2 ? -feature.valence : 0;
      const profane =
        feature.profanity !== undefined && feature.profanity >= 1 ? 2 * feature.profanity + 2 : 0;
      this.insults += Math.max(negative / 2, profane, feature.insult ?? 0);
      this.strongInsults += Math.max(profane, feature.insult ?? 0);
      this.hostility += negative;
    }
    if (feature.hateVerb) this.insults += 2;
  }

  private applyContext(feature: WordFeature): void {
    if (feature.anyone) this.anyone = true;
    if (feature.personTarget) this.persons = true;
    if (feature.thirdPerson) this.thirdPersons = true;
    if (feature.animalTarget) this.animals = true;
    if (feature.harmVerb) this.harmVerb = true;
    if (feature.harmAct) this.harmAct = true;
    if (feature.request) this.request = true;
    if (feature.production) this.production = true;
    if (feature.household) this.household = true;
    if (feature.harmfulProduct) this.harmfulProduct = true;
    if (feature.covert) this.covert = true;
    if (feature.menace) this.menace = true;
    if (feature.incitement) this.incitement = true;
    if (feature.harassingAct) this.harassingAct = true;
    if (feature.deathWish) this.deathWish = true;
    if (feature.game) this.game = true;
    if (feature.reportFrame || feature.safetyFrame) this.frames += 1;
    if (feature.authoring) this.authoring = true;
    if (feature.election) this.election = true;
    if (feature.votingDeception) this.votingDeception = true;
    if (feature.electionInterference) this.electionInterference = true;
  }

  /** A capitalised first name: a person the sentence may be aimed at. */
  applyName(): void {
    this.named = true;
  }

  /** A year ("1944", "1930s"): the sentence likely reports history. */
  applyYear(): void {
    this.frames += 1;
  }

  /** The levels this segment shows, raised into `levels`. */
  settle(levels: CategoryLevels): void {
    const raise = (category: SupportedHarmCategory, level: number) => {
      const framed = this.framed(level);
      if (framed > levels[category]) levels[category] = framed;
    };
    raise("HARM_CATEGORY_HARASSMENT", this.harassment());
    raise("HARM_CATEGORY_HATE_SPEECH", this.hate());
    raise("HARM_CATEGORY_SEXUALLY_EXPLICIT", this.sexual());
    raise("HARM_CATEGORY_DANGEROUS_CONTENT", this.dangerous());
    raise("HARM_CATEGORY_CIVIC_INTEGRITY", this.civic());
  }

  /**
   * A level lowered by the sentence's framing: history, news, study, safety or care make a
   * hard topic ordinary, unless the sentence asks for content to be written or spread.
   */
  private framed(level: number): number {
    if (level === 0 || this.frames === 0 || this.authoring) return level;
    return Math.max(0, level - (this.frames >= FRAME_EXCUSES ? 3 : 2));
  }

  private harassment(): number {
    const aimed = this.directed || this.named || this.persons;
    // Contempt for a group is hate speech; it harasses only someone it is aimed at.
    const atGroup = this.groups > 0 && !this.directed && !this.named;
    const threatened = this.threat && !this.game;
    const menaced = this.menace && (this.directed || this.named);
    const incited =
      this.incitement && (this.violent || this.harassingAct || this.harmVerb) && aimed;
    const wished = this.deathWish && (this.directed || this.named || this.thirdPersons);
    const urged = this.incitement || this.authoring || this.firstPersonAt >= 0;
    const harassed =
      this.harassingAct && urged && (this.named || this.persons || this.thirdPersons);
    if (threatened || menaced || incited || wished || harassed) return 3;
    // Profanity aimed at nobody ("those balls") is not harassment unless it piles up.
    // Aimed at "you", every negative word counts; at a named person or a relation, only
    // words that insult in themselves ("Gable was out" is no insult to Gable).
    const points = atGroup
      ? 0
      : this.directed
        ? this.insults
        : aimed
          ? this.strongInsults
          : this.insults / 3;
    return points >= 15 ? 3 : points >= 6 ? 2 : points >= 3 ? 1 : 0;
  }

  private hate(): number {
    let hate = 0;
    if (this.slurs > 0) {
      const company = this.slurs > 1 || this.groups > 0 || this.stereotypes > 0;
      hate = company || this.hostility >= 3 ? 3 : 2;
    }
    if (this.groups === 0) return hate;
    if (this.dehumanising || this.exclusion) return 3;
    // Contempt and stereotypes demean a group (MEDIUM); denying its humanity or calling for
    // its removal is what rates HIGH.
    const points = this.hostility + 3 * this.stereotypes;
    if (this.contempt) return Math.max(hate, 2);
    return Math.max(hate, points >= 4 ? 2 : points >= 3 ? 1 : 0);
  }

  private sexual(): number {
    if (this.explicit <= 0) return 0;
    const points = this.explicit + this.intensifiers + (this.requested ? 1 : 0);
    if (points >= 4 && this.outright) return 3;
    return points >= 2.5 ? 2 : points >= 1 ? 1 : 0;
  }

  /**
   * Dangerous content: intent to harm someone (a harm verb with a target, or covert intent)
   * asked about or planned; a dangerous thing to be made, asked for with instructions; or
   * household materials made into something harmful.
   */
  private dangerous(): number {
    const target =
      this.anyone || this.persons || this.thirdPersons || this.animals || this.directed;
    const harmful = this.harmVerb || this.household || this.harmfulProduct || this.danger > 0;
    const intent = (this.harmVerb && target) || this.harmAct || (this.covert && harmful);
    const instructed = this.production || this.instructions;
    if (intent && (this.request || instructed)) return 3;
    if (this.harmfulProduct && (instructed || this.request)) return 3;
    if (this.household && instructed && (this.harmfulProduct || this.danger >= 2)) return 3;
    if (this.danger === 0) return 0;
    if (instructed) return this.danger >= 2 ? 3 : 2;
    return this.danger === 3 ? 1 : 0;
  }

  private civic(): number {
    if (!this.election) return 0;
    if (this.electionInterference) return 3;
    if (this.votingDeception) return this.authoring ? 3 : 2;
    return 0;
  }
}
