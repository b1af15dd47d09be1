/**
 * One decoding step: penalties (presencePenalty, frequencyPenalty), temperature (0 = greedy),
 * topK and topP over the model's candidates, drawn with the seeded generator. Log
 * probabilities reported are the model's own (renormalised over the tokens a grammar allows).
 */
import type { Distribution } from "./language-model";
import type { SeededRandom } from "./random";

export interface SamplingSettings {
  temperature: number;
  topK?: number;
  topP: number;
  presencePenalty: number;
  frequencyPenalty: number;
}

export interface TokenLogprob {
  id: number;
  logProbability: number;
}

export interface SampledToken extends TokenLogprob {
  /** The most likely alternatives (including possibly the chosen one), best first. */
  top: TokenLogprob[];
}

/**
 * Picks the next token. `allow` restricts the candidates (grammar constraints); `counts` holds
 * how often each id was already generated (for the penalties); `endId` is never penalised.
 * Returns null when no candidate is allowed.
 */
export function sampleToken(
  distribution: Distribution,
  settings: SamplingSettings,
  random: SeededRandom,
  counts: ReadonlyMap<number, number>,
  options: { allow?: (id: number) => boolean; topLogprobs?: number; endId: number },
): SampledToken | null {
  const { ids, probabilities } = distribution;
  const entries: number[] = [];
  let allowedMass = 0;
  for (let index = 0; index < distribution.length; index++) {
    const id = ids[index]!;
    if (options.allow && !options.allow(id)) continue;
    entries.push(index);
    allowedMass += probabilities[index]!;
  }
  if (entries.length === 0 || allowedMass <= 0) return null;
  const constrained = options.allow !== undefined;
  const normaliser = constrained ? allowedMass : 1;

  const logits = new Float64Array(entries.length);
  for (let position = 0; position < entries.length; position++) {
    const index = entries[position]!;
    const id = ids[index]!;
    let logit = Math.log(probabilities[index]!);
    const seen = id === options.endId ? 0 : (counts.get(id) ?? 0);
    if (seen > 0) logit -= settings.presencePenalty + settings.frequencyPenalty * seen;
    logits[position] = logit;
  }

  let chosen: number;
  if (settings.temperature <= 0) {
    chosen = 0;
    for (let position = 1; position < entries.length; position++) {
      const better = logits[position]! > logits[chosen]!;
      const tie =
        logits[position] === logits[chosen] && ids[entries[position]!]! < ids[entries[chosen]!]!;
      if (better || tie) chosen = position;
    }
  } else {
    chosen = drawPosition(logits, ids, entries, settings, random);
  }

  const chosenIndex = entries[chosen]!;
  const result: SampledToken = {
    id: ids[chosenIndex]!,
    logProbability: Math.log(probabilities[chosenIndex]! / normaliser),
    top: [],
  };
  const wanted = options.topLogprobs ?? 0;
  if (wanted > 0) {
    const best = topPositions(entries, probabilities, ids, wanted);
    result.top = best.map((index) => ({
      id: ids[index]!,
      logProbability: Math.log(probabilities[index]! / normaliser),
    }));
  }
  return result;
}

function drawPosition(
  logits: Float64Array,
  ids: Int32Array,
  entries: number[],
  settings: SamplingSettings,
  random: SeededRandom,
): number {
  const wanted =
    settings.topK && settings.topK > 0 ? Math.min(settings.topK, logits.length) : logits.length;
  const order = bestPositions(logits, wanted, (position) => ids[entries[position]!]!);
  // Ties break on the token id so a seed always walks the same order.
  order.sort((a, b) => logits[b]! - logits[a]! || ids[entries[a]!]! - ids[entries[b]!]!);
  const limit = order.length;
  // Scaled after subtracting the best logit, so a temperature near 0 (2.5e-323 is valid)
  // tends to greedy instead of dividing to -Infinity - -Infinity = NaN.
  const best = logits[order[0]!]!;
  const weights = new Float64Array(limit);
  let sum = 0;
  for (let rank = 0; rank < limit; rank++) {
    const weight = Math.exp((logits[order[rank]!]! - best) / settings.temperature);
    weights[rank] = weight;
    sum += weight;
  }
  // topP: the smallest prefix whose probability reaches topP (always at least one token).
  let kept = limit;
  if (settings.topP < 1) {
    let cumulative = 0;
    for (let rank = 0; rank < limit; rank++) {
      cumulative += weights[rank]! / sum;
      if (cumulative >= settings.topP) {
        kept = rank + 1;
        break;
      }
    }
  }
  let keptSum = 0;
  for (let rank = 0; rank < kept; rank++) keptSum += weights[rank]!;
  let target = random.next() * keptSum;
  for (let rank = 0; rank < kept; rank++) {
    target -= weights[rank]!;
    if (target < 0) return order[rank]!;
  }
  return order[kept - 1]!;
}

function topPositions(
  entries: number[],
  probabilities: Float64Array,
  ids: Int32Array,
  wanted: number,
): number[] {
  const best: number[] = [];
  for (const index of entries) {
    const probability = probabilities[index]!;
    if (best.length === wanted && probability <= probabilities[best[best.length - 1]!]!) continue;
    let position = best.length;
    while (
      position > 0 &&
      (probabilities[best[position - 1]!]! < probability ||
        (probabilities[best[position - 1]!]! === probability &&
          ids[best[position - 1]!]! > ids[index]!))
    ) {
      position--;
    }
    best.splice(position, 0, index);
    if (best.length > wanted) best.pop();
  }
  return best;
}

/**
 * Positions of the `wanted` largest logits (unordered; ties at the boundary go to the lowest
 * token id, as in the full sort). Selecting first keeps a step linear in the number of
 * candidates when topK is small.
 */
function bestPositions(
  logits: Float64Array,
  wanted: number,
  idOf: (position: number) => number,
): number[] {
  const count = logits.length;
  if (wanted >= count) return Array.from(logits.keys());
  const threshold = kthLargest(Float64Array.from(logits), wanted);
  const chosen: number[] = [];
  const tied: number[] = [];
  for (let position = 0; position < count; position++) {
    if (logits[position]! > threshold) chosen.push(position);
    else if (logits[position] === threshold) tied.push(position);
  }
  tied.sort((a, b) => idOf(a) - idOf(b));
  for (const position of tied) {
    if (chosen.length >= wanted) break;
    chosen.push(position);
  }
  return chosen;
}

/** The k-th largest value (1-based) by quickselect; reorders `values`. */
function kthLargest(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  const target = k - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1]!;
    let left = low;
    let right = high;
    while (left <= right) {
      while (values[left]! > pivot) left++;
      while (values[right]! < pivot) right--;
      if (left <= right) {
        const swap = values[left]!;
        values[left] = values[right]!;
        values[right] = swap;
        left++;
        right--;
      }
    }
    if (target <= right) high = right;
    else if (target >= left) low = left;
    else return values[target]!;
  }
  return values[target]!;
}
