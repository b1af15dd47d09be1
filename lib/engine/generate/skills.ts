/**
 * Two literal skills of the local model, documented so tests and demos can steer its text:
 * "Repeat after me: <text>" (also "Say exactly: <text>") answers exactly <text>, and
 * "Decode this base64: <data>" answers the decoded UTF-8 text. Neither is rated as part of
 * the prompt any differently: the decoded text only exists in the answer, which is how a
 * blocked *candidate* can be produced on purpose (see lib/engine/safety/README.md).
 */

const REPEAT = /(?:repeat after me|say exactly)\s*[:,-]?\s*([\s\S]+?)\s*$/i;
const DECODE =
  /decode\s+(?:this|the following)?\s*base64\s*(?:string|text)?\s*[:,-]?\s*([A-Za-z0-9+/_-]{4,}={0,2})\s*$/i;

/** The literal answer a skill gives to the last user turn, if one applies. */
export function literalAnswer(lastUserText: string): string | undefined {
  const decode = DECODE.exec(lastUserText);
  if (decode) {
    const bytes = Buffer.from(decode[1]!.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    if (text && !text.includes("\uFFFD")) return text;
  }
  const repeat = REPEAT.exec(lastUserText);
  if (repeat) return repeat[1]!.replace(/^["“]([\s\S]*)["”]$/, "$1");
  return undefined;
}
