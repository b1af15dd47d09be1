/**
 * Whether a JSON value's text stays within a number of characters, estimated from its strings,
 * keys and scalars without writing it (a visit that stops as soon as the budget is spent): lets
 * a caller write a small value with JSON.stringify at once and a large one in slices, without
 * ever writing megabytes on the request thread only to find them too large.
 */
export function jsonSizeWithin(value: unknown, budget: number): boolean {
  return sizeWithin(value, budget, false);
}

/**
 * jsonSizeWithin for plain data only (what JSON.parse makes: strings, numbers, booleans, null,
 * arrays and objects of Object's prototype or none; and undefined, which JSON.stringify leaves
 * out): false as well for anything else (a typed array, a value with toJSON, a class
 * instance), whose text the estimate cannot see.
 */
export function plainJsonSizeWithin(value: unknown, budget: number): boolean {
  return sizeWithin(value, budget, true);
}

/** Scalars JSON.stringify writes as plain data does (undefined: left out, or null in a list). */
const PLAIN_SCALARS = new Set(["number", "boolean", "undefined"]);

function isPlainObject(item: object): boolean {
  const prototype = Object.getPrototypeOf(item);
  return prototype === Object.prototype || prototype === null;
}

function sizeWithin(value: unknown, budget: number, plainOnly: boolean): boolean {
  let left = budget;
  const stack: unknown[] = [value];
  while (stack.length) {
    const item = stack.pop();
    if (typeof item === "string") left -= item.length + 2;
    else if (Array.isArray(item)) {
      left -= item.length + 2;
      if (left < 0) return false;
      for (const element of item) stack.push(element);
    } else if (typeof item === "object" && item !== null) {
      if (plainOnly && !isPlainObject(item)) return false;
      const keys = Object.keys(item);
      left -= 4 * keys.length + 2;
      if (left < 0) return false;
      for (const key of keys) {
        left -= key.length;
        stack.push((item as Record<string, unknown>)[key]);
      }
    } else if (plainOnly && !PLAIN_SCALARS.has(typeof item)) return false;
    else left -= 8;
    if (left < 0) return false;
  }
  return true;
}
