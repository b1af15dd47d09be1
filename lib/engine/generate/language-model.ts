/**
 * The local engine's language model: an interpolated (Witten-Bell) 4-gram model over the
 * family's token ids, trained once on the shipped corpus and mixed, per request, with counts
 * from the request's own context so answers echo the conversation's vocabulary. It stands in
 * for a neural model; it knowingly has no understanding beyond these statistics.
 */
import type { Vocabulary } from "./vocabulary";
import { PackedNgrams } from "./packed-ngrams";

/** Longest n-gram: three tokens of history. */
export const MAX_ORDER = 4;

/**
 * Scale of the Witten-Bell escape (distinct continuations) at orders ≥ 2. Below 1 the model
 * trusts long histories more, which keeps a small corpus's phrases together.
 */
const ESCAPE_SCALE = 0.4;
/** Share of the Witten-Bell escape mass kept by the unigram level (the rest is the uniform floor). */
const UNIGRAM_ESCAPE_SCALE = 0.05;
/**
 * Weight of the cache component: a model of the conversation alone (orders 2–3, so it only
 * continues phrases the conversation used), mixed in so its words come back in the answer
 * (a cache language model). Whatever it does not place backs off to the main model.
 */
const CACHE_WEIGHT = 0.3;
const CACHE_ORDER = 3;
/** How many of the most frequent corpus tokens are always sampling candidates. */
const TOP_UNIGRAMS = 48;
/** How many of the conversation's most frequent tokens are always sampling candidates. */
const TOP_CONTEXT_UNIGRAMS = 64;

/** Virtual symbols beyond the vocabulary: document starts and the end of a text. */
export interface Symbols {
  answerStart: number;
  thoughtStart: number;
  contextStart: number;
  end: number;
}

export function symbolsFor(vocabularySize: number): Symbols {
  return {
    answerStart: vocabularySize,
    thoughtStart: vocabularySize + 1,
    contextStart: vocabularySize + 2,
    end: vocabularySize + 3,
  };
}

export interface TrieNode {
  /** Occurrences of the n-gram ending here. */
  count: number;
  /** Sum of the children's counts: how often this history was continued. */
  childTotal: number;
  children: Map<number, TrieNode> | undefined;
}

function newNode(): TrieNode {
  return { count: 0, childTotal: 0, children: undefined };
}

/** N-gram counts of one body of text, as a trie of token ids in reading order. */
export class NgramCounts {
  readonly root: TrieNode = newNode();

  /** Counts every n-gram (n ≤ MAX_ORDER) of one document given as symbol ids, `weight` times. */
  addDocument(ids: ArrayLike<number>, weight = 1): void {
    for (let start = 0; start < ids.length; start++) {
      let node = this.root;
      const stop = Math.min(ids.length, start + MAX_ORDER);
      for (let position = start; position < stop; position++) {
        const id = ids[position]!;
        if (!node.children) node.children = new Map();
        let child = node.children.get(id);
        if (!child) {
          child = newNode();
          node.children.set(id, child);
        }
        // Each n-gram occurrence is counted once, as the prefix of the window opened at `start`.
        child.count += weight;
        node.childTotal += weight;
        node = child;
      }
    }
  }

  /** The node of the last `length` tokens of `history`, if that history was seen. */
  find(history: readonly number[], length: number): TrieNode | undefined {
    let node: TrieNode | undefined = this.root;
    for (let index = history.length - length; index < history.length && node; index++) {
      node = node.children?.get(history[index]!);
    }
    return node;
  }

  /** The most frequent unigrams, most frequent first. */
  topUnigrams(limit: number): number[] {
    const entries = [...(this.root.children ?? new Map<number, TrieNode>()).entries()];
    entries.sort((a, b) => b[1].count - a[1].count);
    return entries.slice(0, limit).map(([id]) => id);
  }
}

/** A reusable buffer of candidate ids and their probabilities for one decoding step. */
export class Distribution {
  ids: Int32Array;
  probabilities: Float64Array;
  length = 0;
  /** Probability mass of tokens left out of the candidate list (the uniform floor and rare unigrams). */
  tailMass = 0;

  constructor(capacity = 4096) {
    this.ids = new Int32Array(capacity);
    this.probabilities = new Float64Array(capacity);
  }

  push(id: number, probability: number): void {
    if (this.length === this.ids.length) {
      const ids = new Int32Array(this.ids.length * 2);
      ids.set(this.ids);
      const probabilities = new Float64Array(this.ids.length * 2);
      probabilities.set(this.probabilities);
      this.ids = ids;
      this.probabilities = probabilities;
    }
    this.ids[this.length] = id;
    this.probabilities[this.length] = probability;
    this.length += 1;
  }
}

/** Counts a request adds to the corpus: related corpus answers, and the conversation itself. */
export interface RequestCounts {
  /** Corpus answers related to the prompt, already weighted; they join the main mixture. */
  related: NgramCounts;
  /** The conversation (system instruction, history, files): the cache component. */
  conversation: NgramCounts;
}

/** The trained corpus model of one tokenizer family; cheap to specialise per request. */
export class LanguageModel {
  readonly symbols: Symbols;
  /** The corpus's n-gram counts, packed. */
  private readonly corpus: PackedNgrams;
  private readonly symbolCount: number;
  private readonly corpusUnigrams: Float64Array;
  private readonly corpusTotal: number;
  private readonly corpusDistinct: number;
  private readonly topCorpus: number[];
  // Scratch space shared by every step: generation steps run one at a time on this thread.
  private readonly scratch: Float64Array;
  private readonly marks: Uint8Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;

  constructor(
    readonly vocabulary: Vocabulary,
    /** The corpus's counts as counted; read here once, then kept packed (`corpus`). */
    counts: NgramCounts,
    /** The corpus documents as trained (start symbol, ids, end), for retrieval per request. */
    readonly documents: readonly {
      kind: "answer" | "thought";
      text: string;
      ids: readonly number[];
    }[] = [],
  ) {
    this.symbols = symbolsFor(vocabulary.size);
    this.symbolCount = vocabulary.size + 4;
    this.corpusUnigrams = new Float64Array(this.symbolCount);
    for (const [id, node] of counts.root.children ?? []) this.corpusUnigrams[id] = node.count;
    this.corpusTotal = counts.root.childTotal;
    this.corpusDistinct = counts.root.children?.size ?? 0;
    this.topCorpus = counts.topUnigrams(TOP_UNIGRAMS).filter((id) => this.generatable(id));
    this.corpus = new PackedNgrams(counts);
    this.scratch = new Float64Array(this.symbolCount);
    this.marks = new Uint8Array(this.symbolCount);
    this.touched = new Int32Array(this.symbolCount);
  }

  /** Whether the model may predict this id (the end symbol counts; document starts do not). */
  generatable(id: number): boolean {
    return id === this.symbols.end || (id < this.vocabulary.size && !this.vocabulary.isControl(id));
  }

  /** The model specialised with a request's counts. */
  withContext(counts: RequestCounts): ContextualModel {
    return new ContextualModel(this, counts);
  }

  private mark(id: number, value: number): void {
    if (this.marks[id] === 0) {
      this.marks[id] = 1;
      this.touched[this.touchedCount++] = id;
    }
    this.scratch[id] = this.scratch[id]! + value;
  }

  /**
   * Walks the Witten-Bell levels (highest order first) of some counts (the packed corpus's, if
   * given, then each trie's), adding each level's share of every continuation via `add`;
   * returns the mass left for the unigram level.
   */
  private static levels(
    corpus: PackedNgrams | undefined,
    tries: readonly NgramCounts[],
    history: readonly number[],
    highest: number,
    mass: number,
    add: (id: number, value: number) => void,
  ): number {
    for (let order = highest; order >= 2; order--) {
      const length = order - 1;
      if (history.length < length) continue;
      let total = 0;
      let distinct = 0;
      let corpusNode = corpus ? corpus.find(history, length) : -1;
      if (corpusNode >= 0 && corpus!.childCount(corpusNode) > 0) {
        total += corpus!.childTotal(corpusNode);
        distinct += corpus!.childCount(corpusNode);
      } else corpusNode = -1;
      const nodes: TrieNode[] = [];
      for (const trie of tries) {
        const node = trie.find(history, length);
        if (!node?.children) continue;
        nodes.push(node);
        total += node.childTotal;
        distinct += node.children.size;
      }
      if (total === 0) continue;
      const escape = ESCAPE_SCALE * distinct;
      const share = mass / (total + escape);
      if (corpusNode >= 0) corpus!.addChildren(corpusNode, share, add);
      for (const node of nodes)
        for (const [id, child] of node.children!) add(id, share * child.count);
      mass *= escape / (total + escape);
    }
    return mass;
  }

  /**
   * The n-gram levels of the mixture after `history` (the conversation's own, then the corpus's
   * with the request's related text), each candidate's share handed to `visit`; returns the mass
   * left for unigrams and what the unigram level needs to spread it.
   */
  private mixture(
    counts: RequestCounts,
    history: readonly number[],
    visit: (id: number, value: number) => void,
  ) {
    const conversation = counts.conversation;
    const cacheWeight = conversation.root.childTotal > 0 ? CACHE_WEIGHT : 0;
    const left =
      cacheWeight > 0
        ? LanguageModel.levels(undefined, [conversation], history, CACHE_ORDER, cacheWeight, visit)
        : 0;
    const main = LanguageModel.levels(
      this.corpus,
      [counts.related],
      history,
      MAX_ORDER,
      1 - cacheWeight + left,
      visit,
    );
    const relatedUnigrams = counts.related.root.children;
    const unigramTotal = this.corpusTotal + counts.related.root.childTotal;
    const unigramEscape =
      UNIGRAM_ESCAPE_SCALE * (this.corpusDistinct + (relatedUnigrams?.size ?? 0));
    return { main, relatedUnigrams, unigramTotal, unigramEscape };
  }

  /** @internal used by ContextualModel */
  fill(
    counts: RequestCounts,
    contextTop: readonly number[],
    history: readonly number[],
    out: Distribution,
  ): void {
    this.touchedCount = 0;
    const mark = (id: number, value: number) => this.mark(id, value);
    const { main, relatedUnigrams, unigramTotal, unigramEscape } = this.mixture(
      counts,
      history,
      mark,
    );
    const unigramShare = main / (unigramTotal + unigramEscape);
    const floor = (main * unigramEscape) / (unigramTotal + unigramEscape) / this.vocabulary.size;

    for (const id of this.topCorpus) mark(id, 0);
    for (const id of contextTop) mark(id, 0);

    out.length = 0;
    let kept = 0;
    for (let index = 0; index < this.touchedCount; index++) {
      const id = this.touched[index]!;
      const probability =
        this.scratch[id]! +
        unigramShare * (this.corpusUnigrams[id]! + (relatedUnigrams?.get(id)?.count ?? 0)) +
        floor;
      this.scratch[id] = 0;
      this.marks[id] = 0;
      if (!this.generatable(id)) continue;
      out.push(id, probability);
      kept += probability;
    }
    out.tailMass = Math.max(0, 1 - kept);
  }

  /** @internal the probability of one id after `history` (same mixture as `fill`). */
  probabilityOf(counts: RequestCounts, history: readonly number[], id: number): number {
    let probability = 0;
    const { main, relatedUnigrams, unigramTotal, unigramEscape } = this.mixture(
      counts,
      history,
      (candidate, value) => {
        if (candidate === id) probability += value;
      },
    );
    probability +=
      (main * (this.corpusUnigrams[id]! + (relatedUnigrams?.get(id)?.count ?? 0))) /
      (unigramTotal + unigramEscape);
    probability += (main * unigramEscape) / (unigramTotal + unigramEscape) / this.vocabulary.size;
    return probability;
  }
}

/** The corpus model specialised with one request's counts. */
export class ContextualModel {
  private readonly contextTop: number[];

  constructor(
    readonly base: LanguageModel,
    readonly counts: RequestCounts,
  ) {
    this.contextTop = counts.conversation
      .topUnigrams(TOP_CONTEXT_UNIGRAMS)
      .filter((id) => base.generatable(id));
  }

  get symbols(): Symbols {
    return this.base.symbols;
  }

  get vocabulary(): Vocabulary {
    return this.base.vocabulary;
  }

  /** Fills `out` with the candidates after `history` and their probabilities under the full model. */
  distribution(history: readonly number[], out: Distribution): void {
    this.base.fill(this.counts, this.contextTop, history, out);
  }

  /** P(id | history) under the full model. */
  probability(history: readonly number[], id: number): number {
    return this.base.probabilityOf(this.counts, history, id);
  }

  /** How often the conversation used a phrase (its first MAX_ORDER tokens), with or without a leading space. */
  mentions(text: string): number {
    let best = 0;
    for (const form of [text, ` ${text}`]) {
      const ids = this.vocabulary.encodeForced(form).slice(0, MAX_ORDER);
      if (!ids.length) continue;
      best = Math.max(best, this.counts.conversation.find(ids, ids.length)?.count ?? 0);
    }
    return best;
  }
}
