import "server-only";
import { parseJsonInSlices } from "@/lib/runtime/json-parse-in-slices";
import { TimeSlices } from "@/lib/runtime/time-slices";
import type { Scrubber } from "../config/scrubber";
import { malformedUpstream } from "./upstream-errors";

/**
 * An upstream JSON answer read into a value with the key and the upstream's address removed.
 * A long one (a batch's inline answers, a long list: up to tens of megabytes from a hostile
 * or broken upstream) is scrubbed as raw text piece by piece and parsed in slices, where
 * parse, stringify, scrub and parse again in single native calls held the gateway's thread
 * for about two seconds per 27 MB.
 */

/** Answers shorter than this are read in single native calls (well under a slice). */
export const SLICED_JSON_CHARACTERS = 65_536;
/** Longest raw text the scrubber scans at once. */
const SCRUB_PIECE_CHARACTERS = 65_536;

/**
 * The value of a JSON text that arrived in `pieces` (as decoded from the network, or one
 * string), scrubbed. Text that is not JSON is the upstream's malformed answer, `notJson` saying
 * what it was.
 */
export async function scrubbedJson<T>(
  pieces: readonly string[],
  scrub: Scrubber,
  notJson = "a response that is not JSON",
): Promise<T> {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  try {
    if (length < SLICED_JSON_CHARACTERS) {
      const text = pieces.join("");
      return text.trim() === "" ? ({} as T) : scrub.json(JSON.parse(text) as T);
    }
    const slices = new TimeSlices();
    const scrubbed = await scrubRawInSlices(pieces, scrub, slices);
    return (await parseJsonInSlices(scrubbed, { slices })) as T;
  } catch (error) {
    if (error instanceof SyntaxError) throw malformedUpstream(notJson);
    throw error;
  }
}

/**
 * A JSON text that arrived in `pieces`, scrubbed as raw text and passed on as it was written
 * (an answer the gateway does not read, a token count): no value is made of it but the check
 * that what goes on is JSON. A text of spaces reads as `{}`, as scrubbedJson reads it.
 */
export async function scrubbedJsonText(
  pieces: readonly string[],
  scrub: Scrubber,
  notJson = "a response that is not JSON",
): Promise<string> {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  try {
    if (length < SLICED_JSON_CHARACTERS) {
      const scrubbing = scrub.pieces();
      let text = "";
      for (const piece of pieces) text += scrubbing.push(piece);
      text += scrubbing.end();
      if (text.trim() === "") return "{}";
      JSON.parse(text);
      return text;
    }
    const slices = new TimeSlices();
    const scrubbed = await scrubRawInSlices(pieces, scrub, slices);
    await parseJsonInSlices(scrubbed, { slices });
    return scrubbed;
  } catch (error) {
    if (error instanceof SyntaxError) throw malformedUpstream(notJson);
    throw error;
  }
}

/**
 * The raw JSON text scrubbed as the pass-through answers are (every spelling the raw text can
 * hold: `\u` escapes, `\/`), which leaves valid JSON: what is removed or redacted lies inside
 * strings. A long piece is cut, so each scan is short.
 */
async function scrubRawInSlices(pieces: readonly string[], scrub: Scrubber, slices: TimeSlices) {
  const scrubbing = scrub.pieces();
  const output: string[] = [];
  for (const piece of pieces)
    for (let from = 0; from < piece.length; from += SCRUB_PIECE_CHARACTERS) {
      output.push(scrubbing.push(piece.slice(from, from + SCRUB_PIECE_CHARACTERS)));
      if (slices.due()) await slices.pause();
    }
  output.push(scrubbing.end());
  return output.join("");
}
