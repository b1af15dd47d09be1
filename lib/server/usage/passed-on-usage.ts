import type { UsageMetadata } from "@/lib/gemini/types";

/**
 * The usage of an answer the gateway passes on as text without holding it (a generation with
 * large media): the `usageMetadata` object is read out of the pieces as they pass, by
 * looking for its member name (across piece boundaries) and keeping the balanced object that
 * follows (at most MAX_USAGE_CHARACTERS); the pieces themselves pass unchanged and at once.
 * `onEnd` gets the last one found (undefined if none) when the text ends, fails or is left.
 */

const MEMBER = '"usageMetadata"';
const MAX_USAGE_CHARACTERS = 16 * 1024;

export function readingPassedOnUsage(
  pieces: AsyncIterator<string>,
  onEnd: (usage: UsageMetadata | undefined) => void,
): AsyncIterator<string> {
  let tail = "";
  let capture: string | null = null;
  let usage: UsageMetadata | undefined;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd(usage);
  };

  const scan = (piece: string) => {
    let text = piece;
    for (;;) {
      if (capture === null) {
        const joined = tail + text;
        const at = joined.indexOf(MEMBER);
        if (at < 0) {
          tail = joined.slice(-(MEMBER.length - 1));
          return;
        }
        capture = "";
        tail = "";
        text = joined.slice(at + MEMBER.length);
        continue;
      }
      if (capture === "") {
        // The object has not begun yet (`: ` between the name and it).
        const open = text.indexOf("{");
        if (open < 0) return;
        text = text.slice(open);
      }
      capture += text;
      const closed = balancedEnd(capture);
      if (closed !== null) {
        try {
          usage = JSON.parse(capture.slice(0, closed)) as UsageMetadata;
        } catch {
          // Not an object after all: keep looking.
        }
        const after = capture.slice(closed);
        capture = null;
        text = after;
        continue;
      }
      if (capture.length > MAX_USAGE_CHARACTERS) capture = null;
      return;
    }
  };

  return {
    async next() {
      try {
        const result = await pieces.next();
        if (result.done) end();
        else scan(result.value);
        return result;
      } catch (error) {
        end();
        throw error;
      }
    },
    async return(value?: unknown) {
      end();
      return (await pieces.return?.(value)) ?? { done: true, value: undefined };
    },
  };
}

/** Where the balanced JSON object at the start of `text` ends (exclusive), or null. */
function balancedEnd(text: string): number | null {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (character === "\\") escaped = true;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{") depth++;
    else if (character === "}" && --depth === 0) return index + 1;
  }
  return null;
}
