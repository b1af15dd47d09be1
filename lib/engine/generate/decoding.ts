/**
 * What every output mode shares: the per-candidate decoding state (model, sampling settings,
 * seeded generator, penalty counts) and the token emissions a mode yields, sampled from the
 * model or forced by a grammar.
 */
import type { ContextualModel, Distribution } from "./language-model";
import type { SeededRandom } from "./random";
import { sampleToken, type SamplingSettings, type TokenLogprob } from "./sampler";

export interface Emission {
  id: number;
  logProbability: number;
  top: TokenLogprob[];
}

export interface DecodingState {
  model: ContextualModel;
  distribution: Distribution;
  settings: SamplingSettings;
  random: SeededRandom;
  /** Generated answer tokens so far, for presence and frequency penalties. */
  counts: Map<number, number>;
  /** How many alternatives to report per step (0: no logprobs). */
  topLogprobs: number;
}

/**
 * Yields the tokens of text a grammar forces (probability 1 under the constraint), encoded
 * as they are taken: a long literal answer cut by maxOutputTokens is never encoded whole.
 */
export function* forcedText(state: DecodingState, text: string): Generator<Emission> {
  for (const id of state.model.vocabulary.encodeForcedLazily(text)) {
    yield { id, logProbability: 0, top: state.topLogprobs > 0 ? [{ id, logProbability: 0 }] : [] };
  }
}

/** One sampled step after `history`; null when no candidate passes `allow`. */
export function sampleStep(
  state: DecodingState,
  history: readonly number[],
  allow?: (id: number) => boolean,
): Emission | null {
  state.model.distribution(history, state.distribution);
  const sampled = sampleToken(state.distribution, state.settings, state.random, state.counts, {
    allow,
    topLogprobs: state.topLogprobs,
    endId: state.model.symbols.end,
  });
  if (!sampled) return null;
  if (sampled.id !== state.model.symbols.end)
    state.counts.set(sampled.id, (state.counts.get(sampled.id) ?? 0) + 1);
  return sampled;
}

/**
 * Chooses an index among weighted options with the request's temperature: argmax at 0
 * (first wins ties), otherwise weight^(1/T) sampling with the seeded generator.
 */
export function chooseWeighted(state: DecodingState, weights: readonly number[]): number {
  if (weights.length <= 1) return 0;
  if (state.settings.temperature <= 0) {
    let best = 0;
    for (let index = 1; index < weights.length; index++)
      if (weights[index]! > weights[best]!) best = index;
    return best;
  }
  // Equal weights (a schema's anyOf) are drawn alike at any temperature, without the powers.
  if (weights.every((weight) => weight === weights[0]))
    return Math.min(weights.length - 1, Math.floor(state.random.next() * weights.length));
  const exponent = 1 / state.settings.temperature;
  const scaled = weights.map((weight) => Math.pow(Math.max(weight, 1e-12), exponent));
  const total = scaled.reduce((sum, weight) => sum + weight, 0);
  let target = state.random.next() * total;
  for (let index = 0; index < scaled.length; index++) {
    target -= scaled[index]!;
    if (target < 0) return index;
  }
  return scaled.length - 1;
}

/** Keeps only the last tokens the model looks at. */
export function pushHistory(history: number[], id: number, keep = 3): void {
  history.push(id);
  if (history.length > keep) history.splice(0, history.length - keep);
}
