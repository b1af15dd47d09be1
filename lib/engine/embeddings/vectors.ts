/**
 * The engine's embedding vectors: an input's features (text-features.ts, media identities)
 * hashed with a sign into a space of 1024 values, then turned into a dense vector by a fixed
 * orthogonal map of the model's own: per block of 1024 output values, the model's random
 * signs and a Walsh-Hadamard transform (a subsampled randomized Hadamard transform, the
 * stable projection). Each whole block keeps every angle of the hashed space exactly, so two
 * inputs are as near as the features they share; a shortened vector is a prefix, a random
 * projection of the same space that keeps angles approximately (the fewer values, the
 * rougher), as the service's Matryoshka-trained vectors do. Deterministic: the same model,
 * input and options give the same values. Linear in the features, plus n·log n per block.
 */
import { hashString } from "@/lib/gemini/hash-string";
import { roundHalfUp } from "./round-half-up";

/** Values of the hashed feature space, and of each output block. */
export const BLOCK = 1024;
const BLOCK_BITS = 10;
/**
 * Output values are rounded to 9 decimals, kept as integer billionths (the service's are
 * float32, about 9 digits).
 */
const ROUNDING = 1e9;

/** murmur3's finaliser: spreads FNV's weaker low bits over the whole word. */
function mix(hash: number): number {
  let h = hash >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * An input's features, summed into the hashed space: each at one place with a sign, both
 * drawn from the feature's hash salted with the model's (so two models' vectors are unrelated).
 */
export class FeatureVector {
  private readonly salt: number;

  /** `values`: BLOCK zeros to sum into (a buffer the caller reuses, or a fresh one). */
  constructor(
    model: string,
    readonly values: Float64Array = new Float64Array(BLOCK),
  ) {
    this.salt = hashString(model);
  }

  readonly add = (hash: number, weight: number): void => {
    const h = mix(hash ^ this.salt);
    const place = h & (BLOCK - 1);
    this.values[place] = this.values[place]! + (h & 0x80000000 ? -weight : weight);
  };

  norm(): number {
    let sum = 0;
    for (let index = 0; index < BLOCK; index++) sum += this.values[index]! * this.values[index]!;
    return Math.sqrt(sum);
  }
}

const signCache = new Map<string, Int8Array>();

/** The random signs of one block of a model's map (computed once per model and block). */
function blockSigns(model: string, block: number): Int8Array {
  const key = `${model}#${block}`;
  let signs = signCache.get(key);
  if (!signs) {
    signs = new Int8Array(BLOCK);
    let state = hashString(key);
    for (let index = 0; index < BLOCK; index++) {
      state = mix(state + 0x9e3779b9);
      signs[index] = state & 1 ? -1 : 1;
    }
    signCache.set(key, signs);
  }
  return signs;
}

/**
 * The Walsh-Hadamard transform of `values` in place (unnormalised: lengths grow by √BLOCK).
 * Two stages at a time (radix 4): each value goes through exactly the additions of the
 * stage-by-stage transform, in the same order, so the results are the same to the last bit,
 * with half the passes over the block.
 */
function walshHadamard(values: Float64Array): void {
  for (let half = 1; half < BLOCK; half <<= 2) {
    const step = half << 2;
    for (let start = 0; start < BLOCK; start += step) {
      for (let index = start; index < start + half; index++) {
        const a = values[index]!;
        const b = values[index + half]!;
        const c = values[index + 2 * half]!;
        const d = values[index + 3 * half]!;
        const sumAB = a + b;
        const differenceAB = a - b;
        const sumCD = c + d;
        const differenceCD = c - d;
        values[index] = sumAB + sumCD;
        values[index + half] = differenceAB + differenceCD;
        values[index + 2 * half] = sumAB - sumCD;
        values[index + 3 * half] = differenceAB - differenceCD;
      }
    }
  }
}

export interface ProjectionOptions {
  /** Whose map: the model's resource name. */
  model: string;
  /** Values of the model's full vector (a multiple of BLOCK). */
  dimensions: number;
  /** Leading values wanted; absent: all of them. */
  outputDimensionality?: number;
  /** Scale a shortened vector back to unit length (else it keeps its share of the full one's). */
  renormalizesTruncated: boolean;
}

/** Values of the vector `options` ask for. */
export function projectedLength(options: ProjectionOptions): number {
  return options.outputDimensionality ?? options.dimensions;
}

/**
 * The dense vector of `features`, written into `target` from its start (room for
 * projectedLength values) as integer billionths (the values rounded to 9 decimals): unit
 * length at the model's full size; a prefix when shorter, renormalised or not as the model
 * does. Features that sum to nothing give the vector of an empty input (one fixed feature),
 * never zeros.
 */
export function project(
  features: FeatureVector,
  options: ProjectionOptions,
  target: Int32Array,
): void {
  const { dimensions } = options;
  if (dimensions % BLOCK !== 0)
    throw new Error(`embedding size ${dimensions} is not blocks of ${BLOCK}`);
  let norm = features.norm();
  if (norm === 0) {
    features.add(0, 1);
    norm = 1;
  }
  const wanted = projectedLength(options);
  const blocks = Math.ceil(wanted / BLOCK);
  // Each whole block has length √BLOCK · norm after the transform; the full vector √(blocks) times that.
  let scale = 1 / (norm * Math.sqrt(BLOCK * (dimensions >> BLOCK_BITS)));
  const output = transformed(features.values, options.model, blocks);
  if (wanted < dimensions && options.renormalizesTruncated) {
    let sum = 0;
    for (let index = 0; index < wanted; index++) sum += output[index]! * output[index]!;
    scale = 1 / Math.sqrt(sum);
  }
  for (let index = 0; index < wanted; index++)
    target[index] = roundHalfUp(output[index]! * scale * ROUNDING);
}

/** Room for the blocks of one vector, reused: a projection runs start to end without a pause. */
let scratch = new Float64Array(3 * BLOCK);

/** The first `blocks` blocks of the model's map applied to `hashed`, in a reused buffer. */
function transformed(hashed: Float64Array, model: string, blocks: number): Float64Array {
  if (scratch.length < blocks * BLOCK) scratch = new Float64Array(blocks * BLOCK);
  for (let index = 0; index < blocks; index++) {
    const signs = blockSigns(model, index);
    const block = scratch.subarray(index * BLOCK, (index + 1) * BLOCK);
    for (let place = 0; place < BLOCK; place++) block[place] = hashed[place]! * signs[place]!;
    walshHadamard(block);
  }
  return scratch;
}
