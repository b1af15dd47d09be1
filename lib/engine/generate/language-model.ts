/**
 * The local engine's language model: an interpolated (Witten-Bell) 4-gram model over the
 * family's token ids, trained once on the shipped corpus and mixed, per request, with counts
 * from the request's own context so answers echo the conversation's vocabulary. It stands in
 * for a neural model; it knowingly has no understanding beyond these statistics.
 */
import type { Vocabulary } from "./vocabulary";

/** Longest n-gram: three tokens of history. */
export const MAX_ORDER = 4;

/** How much one occurrence in the request's context counts against one in the corpus, by order. */
const CONTEXT_WEIGHT = [0, 12, 4, 1.5, 1] as const;
/** Share of the Witten-Bell escape mass kept by the unigram level (the rest is the uniform floor). */
const UNIGRAM_ESCAPE_SCALE = 0.05;
/** How many of the most frequent corpus tokens are always sampling candidates. */
const TOP_UNIGRAMS = 160;
/** How many of the context's most frequent tokens are always sampling candidates. */
const TOP_CONTEXT_UNIGRAMS = 240;

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

interface TrieNode {
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

  /** Counts every n-gram (n ≤ MAX_ORDER) of one document given as symbol ids. */
  addDocument(ids: ArrayLike<number>): void {
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
        child.count += 1;
        node.childTotal += 1;
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

/** The trained corpus model of one tokenizer family; cheap to specialise per request. */
export class LanguageModel {
  readonly symbols: Symbols;
  private readonly symbolCount: number;
  private readonly corpusUnigrams: Float64Array;
  private readonly corpusTotal: number;
  private readonly corpusDistinct: number;
  private readonly topCorpus: number[];
  // Scratch space shared by every step: generation steps run one at a time on this thread.
  private readonly scratch: Float64Array;
  private readonly marks: Uint8Array;
  private readonly touched: Int32Array;

  constructor(
    readonly vocabulary: Vocabulary,
    readonly corpus: NgramCounts,
  ) {
    this.symbols = symbolsFor(vocabulary.size);
    this.symbolCount = vocabulary.size + 4;
    this.corpusUnigrams = new Float64Array(this.symbolCount);
    for (const [id, node] of corpus.root.children ?? []) this.corpusUnigrams[id] = node.count;
    this.corpusTotal = corpus.root.childTotal;
    this.corpusDistinct = corpus.root.children?.size ?? 0;
    this.topCorpus = corpus.topUnigrams(TOP_UNIGRAMS).filter((id) => this.generatable(id));
    this.scratch = new Float64Array(this.symbolCount);
    this.marks = new Uint8Array(this.symbolCount);
    this.touched = new Int32Array(this.symbolCount);
  }

  /** Whether the model may predict this id (the end symbol counts; document starts do not). */
  generatable(id: number): boolean {
    return id === this.symbols.end || (id < this.vocabulary.size && !this.vocabulary.isControl(id));
  }

  /** The model mixed with the counts of a request's context documents. */
  withContext(context: NgramCounts): ContextualModel {
    return new ContextualModel(this, context);
  }

  /** @internal used by ContextualModel */
  fill(context: NgramCounts, contextTop: readonly number[], history: readonly number[], out: Distribution): void {
    const scratch = this.scratch;
    const marks = this.marks;
    const touched = this.touched;
    let touchedCount = 0;
    const mark = (id: number, value: number): void => {
      if (marks[id] === 0) {
        marks[id] = 1;
        touched[touchedCount++] = id;
      }
      scratch[id] = scratch[id]! + value;
    };
    let mass = 1;
    for (let order = MAX_ORDER; order >= 2; order--) {
      const length = order - 1;
      if (history.length < length) continue;
      const corpusNode = this.corpus.find(history, length);
      const contextNode = context.find(history, length);
      const weight = CONTEXT_WEIGHT[order]!;
      const total = (corpusNode?.childTotal ?? 0) + weight * (contextNode?.childTotal ?? 0);
      if (total === 0) continue;
      const distinct = (corpusNode?.children?.size ?? 0) + (contextNode?.children?.size ?? 0);
      const share = mass / (total + distinct);
      if (corpusNode?.children) for (const [id, node] of corpusNode.children) mark(id, share * node.count);
      if (contextNode?.children) for (const [id, node] of contextNode.children) mark(id, share * weight * node.count);
      mass *= distinct / (total + distinct);
    }
    const unigramWeight = CONTEXT_WEIGHT[1];
    const contextUnigrams = context.root.children;
    const unigramTotal = this.corpusTotal + unigramWeight * context.root.childTotal;
    const unigramEscape = UNIGRAM_ESCAPE_SCALE * (this.corpusDistinct + (contextUnigrams?.size ?? 0));
    const unigramShare = mass / (unigramTotal + unigramEscape);
    const floor = (mass * unigramEscape) / (unigramTotal + unigramEscape) / this.vocabulary.size;
    for (const id of this.topCorpus) mark(id, 0);
    for (const id of contextTop) mark(id, 0);
    out.length = 0;
    let kept = 0;
    for (let index = 0; index < touchedCount; index++) {
      const id = touched[index]!;
      const probability =
        scratch[id]! + unigramShare * (this.corpusUnigrams[id]! + unigramWeight * (contextUnigrams?.get(id)?.count ?? 0)) + floor;
      scratch[id] = 0;
      marks[id] = 0;
      if (!this.generatable(id)) continue;
      out.push(id, probability);
      kept += probability;
    }
    out.tailMass = Math.max(0, 1 - kept);
  }

  /** @internal the probability of one id after `history` (same mixture as `fill`). */
  probabilityOf(context: NgramCounts, history: readonly number[], id: number): number {
    let mass = 1;
    let probability = 0;
    for (let order = MAX_ORDER; order >= 2; order--) {
      const length = order - 1;
      if (history.length < length) continue;
      const corpusNode = this.corpus.find(history, length);
      const contextNode = context.find(history, length);
      const weight = CONTEXT_WEIGHT[order]!;
      const total = (corpusNode?.childTotal ?? 0) + weight * (contextNode?.childTotal ?? 0);
      if (total === 0) continue;
      const distinct = (corpusNode?.children?.size ?? 0) + (contextNode?.children?.size ?? 0);
      const count = (corpusNode?.children?.get(id)?.count ?? 0) + weight * (contextNode?.children?.get(id)?.count ?? 0);
      probability += (mass * count) / (total + distinct);
      mass *= distinct / (total + distinct);
    }
    const unigramWeight = CONTEXT_WEIGHT[1];
    const contextUnigrams = context.root.children;
    const unigramTotal = this.corpusTotal + unigramWeight * context.root.childTotal;
    const unigramEscape = UNIGRAM_ESCAPE_SCALE * (this.corpusDistinct + (contextUnigrams?.size ?? 0));
    const count = this.corpusUnigrams[id]! + unigramWeight * (contextUnigrams?.get(id)?.count ?? 0);
    probability += (mass * count) / (unigramTotal + unigramEscape);
    probability += (mass * unigramEscape) / (unigramTotal + unigramEscape) / this.vocabulary.size;
    return probability;
  }
}

/** The corpus model specialised with one request's context. */
export class ContextualModel {
  private readonly contextTop: number[];

  constructor(
    readonly base: LanguageModel,
    readonly context: NgramCounts,
  ) {
    this.contextTop = context.topUnigrams(TOP_CONTEXT_UNIGRAMS).filter((id) => base.generatable(id));
  }

  get symbols(): Symbols {
    return this.base.symbols;
  }

  get vocabulary(): Vocabulary {
    return this.base.vocabulary;
  }

  /** Fills `out` with the candidates after `history` and their probabilities under the full model. */
  distribution(history: readonly number[], out: Distribution): void {
    this.base.fill(this.context, this.contextTop, history, out);
  }

  /** P(id | history) under the full model. */
  probability(history: readonly number[], id: number): number {
    return this.base.probabilityOf(this.context, history, id);
  }
}
