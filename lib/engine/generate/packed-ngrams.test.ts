import { describe, expect, it } from "vitest";
import { MAX_ORDER, NgramCounts } from "./language-model";
import { PackedNgrams } from "./packed-ngrams";
import { SeededRandom } from "./random";

/** Documents of random ids with repeats, so that nodes have many continuations in no sorted order. */
function randomDocuments(seed: number): number[][] {
  const random = new SeededRandom(seed);
  return Array.from({ length: 60 }, () =>
    Array.from(
      { length: 5 + Math.floor(random.next() * 40) },
      () => Math.floor(random.next() * 300) * 7,
    ),
  );
}

describe("PackedNgrams", () => {
  it("reads every history as the trie it was packed from, continuations in the order first counted", () => {
    const trie = new NgramCounts();
    const documents = randomDocuments(11);
    for (const ids of documents) trie.addDocument(ids, 2);
    const packed = new PackedNgrams(trie);
    let checked = 0;
    for (const ids of documents)
      for (let end = 1; end <= ids.length; end++)
        for (let length = 0; length < MAX_ORDER && length <= end; length++) {
          const history = ids.slice(0, end);
          const node = trie.find(history, length)!;
          const packedNode = packed.find(history, length);
          expect(packedNode).toBeGreaterThanOrEqual(0);
          expect(packed.count(packedNode)).toBe(node.count);
          expect(packed.childTotal(packedNode)).toBe(node.childTotal);
          expect(packed.childCount(packedNode)).toBe(node.children?.size ?? 0);
          const continuations: [number, number][] = [];
          packed.addChildren(packedNode, 0.5, (id, value) => continuations.push([id, value]));
          expect(continuations).toEqual(
            [...(node.children ?? [])].map(([id, child]) => [id, 0.5 * child.count]),
          );
          checked++;
        }
    expect(checked).toBeGreaterThan(1000);
  });

  it("finds no node for a history never counted", () => {
    const trie = new NgramCounts();
    trie.addDocument([3, 5, 8]);
    const packed = new PackedNgrams(trie);
    expect(packed.find([3, 8], 2)).toBe(-1);
    expect(packed.find([4], 1)).toBe(-1);
    expect(packed.find([3, 5], 2)).toBeGreaterThan(0);
    expect(packed.childCount(packed.find([3, 5, 8], 3))).toBe(0);
  });
});
