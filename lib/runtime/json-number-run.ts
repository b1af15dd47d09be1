/**
 * Runs of numbers written as JSON text without a string per number: an embedding answer is
 * thousands of numbers per vector, and JSON.stringify's shortest-digits conversion of each
 * (plus the string it makes) was most of the time a batch of vectors took to answer. Numbers
 * with at most 9 decimals and at most 15 significant digits (every value the engine's vectors
 * hold, any count or small float) are written from their integer digits, straight into a byte
 * buffer; any other number by String(). The text is exactly JSON.stringify's: a decimal of at
 * most 15 significant digits is the shortest text that reads back as its double, and numbers
 * below 1e-6 are written with an exponent (`1.5e-7`), as JavaScript writes them.
 */

/** Digits after the point the integer path handles. */
const DECIMALS = 1e9;
/** Numbers of at most 15 significant digits: 1e15 units of 1e-9. */
const MAX_UNITS = 1e15;
/** Characters of the longest number String() writes (`-1.2345678901234567e-300`). */
const MAX_NUMBER_CHARACTERS = 32;

const COMMA = 0x2c;
const MINUS = 0x2d;
const POINT = 0x2e;
const ZERO = 0x30;
const LETTER_E = 0x65;

/** numberRunText's scratch: the run's bytes before they become its text. */
let buffer = Buffer.allocUnsafe(64 * 1024);

/** Writes the decimal digits of a non-negative integer below 2^53 ending just before `end`. */
function writeDigitsBackwards(target: Buffer, end: number, value: number): number {
  let position = end;
  do {
    const next = Math.floor(value / 10);
    target[--position] = ZERO + (value - next * 10);
    value = next;
  } while (value > 0);
  return position;
}

/** Digits a non-negative integer below 2^53 has. */
function digitCount(value: number): number {
  let count = 1;
  while (value >= 10) {
    value = Math.floor(value / 10);
    count += 1;
  }
  return count;
}

/**
 * Writes a number the run's own loop does not (more than 9 decimals or 15 digits, below 1e-6,
 * 10 or more before the point, not finite) as JSON.stringify does; returns the position after it.
 */
function writeOther(target: Buffer, view: DataView, position: number, value: number): number {
  const units = Math.round(value * DECIMALS);
  if (!(Math.abs(units) < MAX_UNITS && units / DECIMALS === value)) {
    const text = Number.isFinite(value) ? String(value) : "null";
    return position + target.write(text, position, "latin1");
  }
  let rest = units;
  if (rest < 0) {
    target[position++] = MINUS;
    rest = -rest;
  }
  if (rest < 1000) return writeSmall(target, position, rest);
  const whole = Math.floor(rest / DECIMALS);
  position = writeDigitsForwards(target, position, whole);
  return writeFraction(target, view, position, rest - whole * DECIMALS);
}

/** "0000" to "9999", four character codes packed in a little-endian 32-bit word each. */
const DIGIT_QUADS = Uint32Array.from({ length: 10_000 }, (_, value) => {
  const digits = String(value).padStart(4, "0");
  let word = 0;
  for (let index = 3; index >= 0; index--) word = (word << 8) | digits.charCodeAt(index);
  return word >>> 0;
});

/**
 * `.ddddddddd` of a fraction of 0 to 999,999,999 units of 1e-9 (nothing for 0), trailing zeros
 * left out: its first digit, then two words of four digits each. Below 1e9, so 32-bit integers
 * (`| 0` lets the divisions compile to integer multiplications).
 */
function writeFraction(target: Buffer, view: DataView, position: number, units: number): number {
  if (units === 0) return position;
  let fraction = units | 0;
  const first = (fraction / 100_000_000) | 0;
  fraction -= first * 100_000_000;
  const middle = (fraction / 10_000) | 0;
  target[position] = POINT;
  target[position + 1] = ZERO + first;
  view.setUint32(position + 2, DIGIT_QUADS[middle]!, true);
  view.setUint32(position + 6, DIGIT_QUADS[fraction - middle * 10_000]!, true);
  let end = position + 10;
  while (target[end - 1] === ZERO) end -= 1;
  return end;
}

/**
 * A number of 1 to 999 units of 1e-9 (below 1e-6), as JavaScript writes it: its significant
 * digits as d.ddd, then e-<exponent> (`1.05e-7`).
 */
function writeSmall(target: Buffer, position: number, units: number): number {
  let significant = units;
  const exponent = 10 - digitCount(units);
  while (significant % 10 === 0) significant /= 10;
  const digits = digitCount(significant);
  writeDigitsBackwards(target, position + 1 + digits, significant);
  target[position] = target[position + 1]!;
  if (digits > 1) target[position + 1] = POINT;
  position += digits === 1 ? 1 : digits + 1;
  target[position++] = LETTER_E;
  target[position++] = MINUS;
  return writeDigitsForwards(target, position, exponent);
}

function writeDigitsForwards(target: Buffer, position: number, value: number): number {
  const digits = digitCount(value);
  writeDigitsBackwards(target, position + digits, value);
  return position + digits;
}

/** A run of numbers as JSON text, and the index after the last one written. */
export interface NumberRun {
  text: string;
  end: number;
}

/** Where a run written into a buffer stopped: the byte after it, and the index after its last number. */
export interface NumberRunWritten {
  position: number;
  end: number;
}

/** Bytes one number of a run takes at most, its comma included. */
export const MAX_NUMBER_RUN_BYTES = MAX_NUMBER_CHARACTERS + 1;

/**
 * The JSON text of the numbers of `items` from `from` on, joined by commas (a comma first when
 * `from` is not the array's start), up to `limit` or the first item that is not a number.
 */
export function numberRunText(items: ArrayLike<unknown>, from: number, limit: number): NumberRun {
  const room = (limit - from) * MAX_NUMBER_RUN_BYTES;
  if (buffer.length < room) buffer = Buffer.allocUnsafe(room);
  const { position, end } = writeNumberRun(buffer, 0, items, from, limit);
  return { text: buffer.toString("latin1", 0, position), end };
}

/**
 * numberRunText's text written as bytes (ASCII) into `target` from `position`, for a writer
 * that sends bytes: no string made, none encoded, nothing copied. `target` has room for
 * MAX_NUMBER_RUN_BYTES a number from `position` on. `items` is a JavaScript array or a typed
 * array of numbers (an embedding's Float64Array, lib/gemini/embedding-values.ts).
 */
export function writeNumberRun(
  target: Buffer,
  position: number,
  items: ArrayLike<unknown>,
  from: number,
  limit: number,
): NumberRunWritten {
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  let index = from;
  for (; index < limit; index++) {
    const item = items[index];
    if (typeof item !== "number") break;
    if (index > 0) target[position++] = COMMA;
    // The usual number (a vector's value, a count) is written here, in the loop: a call per
    // number would box each double it is handed.
    const units = Math.round(item * DECIMALS);
    const rest = units < 0 ? -units : units;
    if (!(rest < 10 * DECIMALS && units / DECIMALS === item && (rest === 0 || rest >= 1000))) {
      position = writeOther(target, view, position, item);
      continue;
    }
    // -0 is written "0", as JSON.stringify writes it.
    if (units < 0) target[position++] = MINUS;
    const whole = rest >= DECIMALS ? Math.floor(rest / DECIMALS) : 0;
    target[position++] = ZERO + whole;
    position = writeFraction(target, view, position, rest - whole * DECIMALS);
  }
  return { position, end: index };
}

/**
 * writeNumberRun's text for numbers given as integer billionths (each value `billionths[i]` /
 * 1e9, an embedding's values as the local engine computes them): the same bytes, without
 * rounding each value to its billionths and dividing back to check it is one. `billionths` is
 * an Int32Array; `target` has room for MAX_NUMBER_RUN_BYTES a number from `position` on.
 */
export function writeBillionthsRun(
  target: Buffer,
  position: number,
  billionths: Int32Array,
  from: number,
  limit: number,
): number {
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  for (let index = from; index < limit; index++) {
    const units = billionths[index]!;
    if (index > 0) target[position++] = COMMA;
    let rest = units;
    if (rest < 0) {
      target[position++] = MINUS;
      rest = -rest;
    }
    if (rest < 1000) {
      position = rest === 0 ? writeZero(target, position) : writeSmall(target, position, rest);
      continue;
    }
    const whole = rest >= DECIMALS ? Math.floor(rest / DECIMALS) : 0;
    target[position++] = ZERO + whole;
    position = writeFraction(target, view, position, rest - whole * DECIMALS);
  }
  return position;
}

function writeZero(target: Buffer, position: number): number {
  target[position] = ZERO;
  return position + 1;
}
