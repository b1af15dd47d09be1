/**
 * Building blocks of the fuzzer's requests: hostile strings, numbers, path segments and
 * query strings, wire objects of the API (valid-looking, so requests get past the first
 * check), and mutations that break one spot of an otherwise plausible body.
 */
import fc from "fast-check";

/** Strings chosen to break parsers, path handling, SQL and logs. */
export const HOSTILE_STRINGS = [
  "",
  " ",
  ".",
  "..",
  "../",
  "../../genstudio.sqlite",
  "../../../../etc/passwd",
  "..\\..\\genstudio.sqlite",
  "%2e%2e",
  "%2e%2e%2f%2e%2e%2fgenstudio.sqlite",
  "..%2F..%2Fgenstudio.sqlite",
  "%252e%252e%252f",
  "a/b",
  "a%2Fb",
  "a%5Cb",
  "\u0000",
  "%00",
  "abc%00def",
  "%ZZ",
  "%",
  "%E0%A4%A",
  "%C0%AE%C0%AE",
  "files/",
  "files/../files/x",
  "cachedContents/",
  "models/",
  "models/gemini-2.5-flash",
  "null",
  "undefined",
  "0",
  "-1",
  "9".repeat(40),
  "x".repeat(300),
  "\u202e\u202d",
  "\ud800",
  "😀",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"; DROP TABLE files; --',
  "${process.env.GEMINI_API_KEY}",
  "__proto__",
  "constructor",
  "\r\nX-Injected: yes",
];

/** Any string, weighted towards the hostile ones. */
export const anyString = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 20 }), weight: 2 },
  { arbitrary: fc.lorem({ maxCount: 12 }), weight: 2 },
  {
    arbitrary: fc.string({
      unit: fc.constantFrom("a", "/", "%", ".", "2", "e", "f", ":", "\\"),
      maxLength: 24,
    }),
    weight: 2,
  },
);

/** Text that reads like a prompt (now and then a long one). */
export const promptText = fc.oneof(
  { arbitrary: fc.lorem({ maxCount: 6, mode: "sentences" }), weight: 80 },
  {
    arbitrary: fc.constantFrom(
      "The quick brown fox jumps over the lazy dog.",
      "Hello",
      "Write a haiku about the sea.",
      "",
    ),
    weight: 40,
  },
  { arbitrary: anyString, weight: 40 },
  {
    arbitrary: fc
      .constantFrom(2_000, 20_000)
      .map((words) => "many words make a long prompt ".repeat(words / 6)),
    weight: 1,
  },
);

/** Numbers at and past every boundary, plus things that are not numbers. */
export const anyNumber = fc.oneof(
  { arbitrary: fc.integer({ min: -3, max: 70 }), weight: 4 },
  { arbitrary: fc.double({ noNaN: true, min: -3, max: 3 }), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      0,
      -0,
      0.5,
      1,
      2,
      2.0000001,
      64,
      65,
      100,
      8192,
      65_536,
      1e9,
      2 ** 31,
      2 ** 53 + 2,
      1e308,
      -1e308,
      Number.MIN_VALUE,
    ),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom(
      "1",
      "1.5",
      "NaN",
      "Infinity",
      "-0",
      "1e3",
      "0x10",
      "",
      null,
      true,
      [],
      {},
    ),
    weight: 1,
  },
);

/** Characters safe in a header value (visible ASCII and space). */
export const headerSafeString = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
    maxLength: 60,
  }),
  fc.constantFrom(
    "",
    "..",
    "%2e%2e",
    "x".repeat(2000),
    "upload, finalize, cancel",
    "-1",
    "18446744073709551616",
    "1e3",
    " 5 ",
  ),
);

/** `s` as bytes percent-encoded (works for lone surrogates too, which encodeURIComponent refuses). */
function percentEncode(value) {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, "utf8")]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`)
      .join("");
  }
}

const RAW_SAFE = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]*$/;

/** One path segment from a string: encoded, double encoded, or raw when the raw form is a legal request target. */
export function segmentArbitrary(strings) {
  return fc
    .tuple(strings, fc.constantFrom("encoded", "encoded", "encoded", "raw", "double"))
    .map(([value, style]) => {
      if (style === "raw" && RAW_SAFE.test(value)) return value;
      if (style === "double") return percentEncode(percentEncode(value));
      return percentEncode(value);
    });
}

/** A query string (with its `?`, or empty) from name/value pairs. */
export function queryString(pairs) {
  const items = pairs
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${percentEncode(name)}=${percentEncode(String(value))}`);
  return items.length > 0 ? `?${items.join("&")}` : "";
}

/**
 * Replaces, deletes or adds one node of a JSON value, chosen by `index` in a walk of all
 * nodes; the result still looks like the request it came from except at that spot.
 */
export function mutateJson(value, index, junk, operation) {
  let counter = 0;
  const visit = (node) => {
    const here = counter++;
    if (here === index) {
      if (operation === "replace") return { done: true, node: junk };
      if (operation === "wrap") return { done: true, node: [node] };
      if (operation === "unknown" && node && typeof node === "object" && !Array.isArray(node))
        return { done: true, node: { ...node, unexpectedField: junk } };
      if (operation === "snake" && node && typeof node === "object" && !Array.isArray(node)) {
        return {
          done: true,
          node: Object.fromEntries(
            Object.entries(node).map(([key, item]) => [
              key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
              item,
            ]),
          ),
        };
      }
      if (operation === "delete") return { done: true, node: undefined };
      return { done: true, node: junk };
    }
    if (Array.isArray(node)) {
      const copy = [...node];
      for (let position = 0; position < copy.length; position++) {
        const result = visit(copy[position]);
        if (result.done) {
          if (result.node === undefined) copy.splice(position, 1);
          else copy[position] = result.node;
          return { done: true, node: copy };
        }
      }
    } else if (node && typeof node === "object") {
      const copy = { ...node };
      for (const key of Object.keys(copy)) {
        const result = visit(copy[key]);
        if (result.done) {
          if (result.node === undefined) delete copy[key];
          else copy[key] = result.node;
          return { done: true, node: copy };
        }
      }
    }
    return { done: false, node };
  };
  const result = visit(value);
  return result.node;
}

/** A plausible value with, half of the time, one spot broken. */
export function mutated(arbitrary) {
  return fc.oneof(
    { arbitrary, weight: 1 },
    {
      arbitrary: fc
        .tuple(
          arbitrary,
          fc.nat({ max: 60 }),
          fc.oneof(anyString, anyNumber, fc.jsonValue({ maxDepth: 2 })),
          fc.constantFrom("replace", "delete", "unknown", "snake", "wrap"),
        )
        .map(([value, index, junk, operation]) => mutateJson(value, index, junk, operation)),
      weight: 1,
    },
  );
}

/** A JSON nested `depth` levels deep inside `prefix`/`suffix` (stack-depth attacks on parsers and validators). */
export function deepJson(depth, kind) {
  if (kind === "array") return `${"[".repeat(depth)}${"]".repeat(depth)}`;
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** Request bodies: usually the JSON of `objects`, sometimes text that is not JSON at all. */
export function bodyArbitrary(objects) {
  return fc.oneof(
    { arbitrary: objects.map((value) => JSON.stringify(value) ?? ""), weight: 14 },
    {
      arbitrary: objects.map((value) =>
        (JSON.stringify(value, null, 2) ?? "").replace(/\n/g, "\r\n"),
      ),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(objects, fc.nat()).map(([value, cut]) => {
        const text = JSON.stringify(value) ?? "";
        return text.slice(0, cut % (text.length + 1));
      }),
      weight: 2,
    },
    { arbitrary: objects.map((value) => `\ufeff${JSON.stringify(value)}`), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        "",
        "null",
        "[]",
        '"text"',
        "1e999",
        "{",
        "}",
        '{"contents":',
        '{"a":1,"a":2}',
        '{"__proto__":{"polluted":true}}',
        "\u0000",
        "undefined",
      ),
      weight: 2,
    },
    { arbitrary: fc.json({ maxDepth: 4 }), weight: 2 },
    {
      arbitrary: fc
        .constantFrom(100, 1_000, 20_000)
        .chain((depth) => fc.constantFrom(deepJson(depth, "array"), deepJson(depth, "object"))),
      weight: 1,
    },
    { arbitrary: fc.uint8Array({ maxLength: 256 }), weight: 1 },
  );
}
