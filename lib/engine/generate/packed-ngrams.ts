/**
 * The corpus's n-gram counts packed into typed arrays once training is done. The trie of Maps
 * it was counted in is hundreds of thousands of small objects that every full collection of
 * the server's heap has to mark, for as long as the process lives; the same counts in a few
 * typed arrays are bytes outside the heap that the collector never walks. Read-only, and read
 * exactly as the trie: each node's continuations are visited in the order they were first
 * counted, so every sum over them, and every answer, is the same.
 */
import type { NgramCounts, TrieNode } from "./language-model";

/** The root's node number. */
const ROOT = 0;

export class PackedNgrams {
  /** Occurrences of the n-gram ending at each node. */
  private readonly counts: Float64Array;
  /** Sum of each node's continuations' counts. */
  private readonly childTotals: Float64Array;
  /** Node n's continuations are entries childStarts[n] up to childStarts[n + 1]. */
  private readonly childStarts: Int32Array;
  /** Each entry's token id and node number, in the order the trie first counted them. */
  private readonly childIds: Int32Array;
  private readonly childNodes: Int32Array;
  /** The same entries of each node sorted by token id, for finding one by binary search. */
  private readonly sortedIds: Int32Array;
  private readonly sortedNodes: Int32Array;

  constructor(trie: NgramCounts) {
    // Numbered breadth first: a node's continuations take consecutive numbers.
    const nodes: TrieNode[] = [trie.root];
    for (let index = 0; index < nodes.length; index++)
      for (const child of nodes[index]!.children?.values() ?? []) nodes.push(child);
    const edges = nodes.length - 1;
    this.counts = new Float64Array(nodes.length);
    this.childTotals = new Float64Array(nodes.length);
    this.childStarts = new Int32Array(nodes.length + 1);
    this.childIds = new Int32Array(edges);
    this.childNodes = new Int32Array(edges);
    this.sortedIds = new Int32Array(edges);
    this.sortedNodes = new Int32Array(edges);
    let next = 1;
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      this.counts[index] = node.count;
      this.childTotals[index] = node.childTotal;
      const start = next - 1;
      this.childStarts[index] = start;
      for (const id of node.children?.keys() ?? []) {
        this.childIds[next - 1] = id;
        this.childNodes[next - 1] = next;
        next++;
      }
      this.sortRange(start, next - 1);
    }
    this.childStarts[nodes.length] = edges;
  }

  /** The node of the last `length` tokens of `history`, or -1 if that history was not seen. */
  find(history: readonly number[], length: number): number {
    let node = ROOT;
    for (let index = history.length - length; index < history.length && node >= 0; index++)
      node = this.child(node, history[index]!);
    return node;
  }

  /** The node after `node` followed by `id`, or -1. */
  child(node: number, id: number): number {
    let low = this.childStarts[node]!;
    let high = this.childStarts[node + 1]! - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = this.sortedIds[middle]!;
      if (found === id) return this.sortedNodes[middle]!;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  count(node: number): number {
    return this.counts[node]!;
  }

  childTotal(node: number): number {
    return this.childTotals[node]!;
  }

  /** How many distinct tokens followed `node`. */
  childCount(node: number): number {
    return this.childStarts[node + 1]! - this.childStarts[node]!;
  }

  /** Hands each continuation of `node` to `add` with `scale` times its count, in the order first counted. */
  addChildren(node: number, scale: number, add: (id: number, value: number) => void): void {
    const end = this.childStarts[node + 1]!;
    for (let entry = this.childStarts[node]!; entry < end; entry++)
      add(this.childIds[entry]!, scale * this.counts[this.childNodes[entry]!]!);
  }

  /** The root's node number, whose continuations are the unigrams. */
  get root(): number {
    return ROOT;
  }

  /** Copies entries [start, end) sorted by id into the sorted arrays. */
  private sortRange(start: number, end: number): void {
    const order: number[] = [];
    for (let entry = start; entry < end; entry++) order.push(entry);
    order.sort((a, b) => this.childIds[a]! - this.childIds[b]!);
    order.forEach((entry, offset) => {
      this.sortedIds[start + offset] = this.childIds[entry]!;
      this.sortedNodes[start + offset] = this.childNodes[entry]!;
    });
  }
}
