/**
 * Seeded pseudo-random numbers for sampling (GenerationConfig.seed): the same seed gives the
 * same draws, so the same request and seed repeat the answer. No seed → a fresh random seed.
 */

/** A deterministic generator of floats in [0, 1) (xoshiro128**, 128-bit state). */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix32 spreads one 32-bit seed over the four state words.
    let state = seed >>> 0;
    const next = (): number => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next() || 1;
  }

  /** Next float in [0, 1). */
  next(): number {
    const result = Math.imul(rotate(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c = (this.c ^ t) >>> 0;
    this.d = rotate(this.d >>> 0, 11);
    return result / 4294967296;
  }

  /** Integer in [low, high] inclusive. */
  integer(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  /** A new independent generator derived from this one (one per candidate). */
  fork(salt: number): SeededRandom {
    return new SeededRandom(
      (Math.floor(this.next() * 4294967296) ^ Math.imul(salt + 1, 0x27d4eb2d)) >>> 0,
    );
  }
}

function rotate(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}

/** A seed for a request without one: different on every call. */
export function freshSeed(): number {
  return (Math.floor(Math.random() * 4294967296) ^ (Date.now() & 0xffffffff)) >>> 0;
}
