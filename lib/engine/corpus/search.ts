/**
 * Word-overlap search over a set of texts: each text's set of word stems, ranked against a
 * query by the idf weight of the stems they share. The engine uses it to pull related corpus
 * answers into a request's context, and grounding uses it as its local search engine.
 */

/** Stems of a text's words of three letters or more (the first five letters). */
export function searchWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map((word) =>
    word.length > 5 ? word.slice(0, 5) : word,
  );
}

export interface SearchIndex {
  sets: Set<string>[];
  frequency: Map<string, number>;
}

export function buildSearchIndex(texts: readonly string[]): SearchIndex {
  const sets = texts.map((text) => new Set(searchWords(text)));
  const frequency = new Map<string, number>();
  for (const set of sets)
    for (const word of set) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  return { sets, frequency };
}

/** The texts (by position) sharing idf weight of at least `minimum` with the query, best first. */
export function searchIndex(
  index: SearchIndex,
  query: string,
  minimum: number,
): { position: number; score: number }[] {
  const wanted = new Set(searchWords(query));
  const scored = index.sets.map((set, position) => {
    let score = 0;
    for (const word of wanted)
      if (set.has(word)) score += Math.log(index.sets.length / index.frequency.get(word)!);
    return { position, score };
  });
  return scored
    .filter(({ score }) => score >= minimum)
    .sort((a, b) => b.score - a.score || a.position - b.position);
}
