/** fast-check arbitraries shared by the tests of the sliced JSON reader and writer. */
import fc from "fast-check";

/** Text with escapes of every kind, astral characters and lone surrogates. */
export const awkwardString = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', "\\", "\n", "\u0000", "\u001f", "\u2028", "é", "😀", "\ud800", "\udc00"),
    fc.string({ unit: "binary", maxLength: 3 }),
  ),
  maxLength: 120,
});

/** Plain JSON data, with keys JSON treats specially (`__proto__`, array indexes). */
export const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    awkwardString,
    fc.array(tie("value"), { maxLength: 12 }),
    fc.dictionary(
      fc.oneof(awkwardString, fc.constantFrom("__proto__", "0", "12", "constructor")),
      tie("value"),
      { maxKeys: 12 },
    ),
  ),
})).value;
