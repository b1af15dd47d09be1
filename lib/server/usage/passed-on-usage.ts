import type { UsageMetadata } from "@/lib/gemini/types";

/**
 * The usage of an answer the gateway passes on without holding it (a generation with large
 * media; the OpenAI-compatible endpoint's answers and streams): the usage object is read out
 * of the text as it passes, by looking for its member name (`"usageMetadata"`, `"usage"`,
 * across piece boundaries) followed by `:` and an object, and keeping that balanced object
 * (at most MAX_USAGE_CHARACTERS); the pieces themselves pass unchanged and at once. `onEnd`
 * gets the last one found (undefined if none) when the text ends, fails or is left. Linear in
 * the text: each character is looked at a bounded number of times.
 */

/** Where a captured object stands: its text so far and the reading of its last character. */
interface Capture {
  text: string;
  depth: number;
  inString: boolean;
  escaped: boolean;
}

const MAX_USAGE_CHARACTERS = 16 * 1024;

/** Reads the last `"{member}": {...}` object of a text given in pieces. */
export class UsageScanner {
  private readonly member: string;
  private tail = "";
  /** Text after the member name while waiting for `:` and `{`; null when not after one. */
  private opening: string | null = null;
  /** The object being captured, from its `{`; null when none is. */
  private capture: Capture | null = null;
  /** The last object found. */
  found: unknown;

  constructor(member: string) {
    this.member = `"${member}"`;
  }

  push(piece: string): void {
    let text = piece;
    while (text.length > 0) {
      if (this.capture !== null) {
        text = this.continueCapture(text);
        continue;
      }
      if (this.opening !== null) {
        text = this.continueOpening(text);
        continue;
      }
      const joined = this.tail + text;
      const at = joined.indexOf(this.member);
      if (at < 0) {
        this.tail = joined.slice(-(this.member.length - 1));
        return;
      }
      this.tail = "";
      this.opening = "";
      text = joined.slice(at + this.member.length);
    }
  }

  /** After the name: whitespace, one `:`, whitespace, then `{` begins the object; else not it. */
  private continueOpening(text: string): string {
    const seen = this.opening + text;
    const match = /^\s*(?::\s*)?/.exec(seen)!;
    const rest = seen.slice(match[0].length);
    if (rest === "") {
      this.opening = seen.length > 256 ? null : seen;
      return "";
    }
    this.opening = null;
    if (rest[0] === "{" && match[0].includes(":")) {
      this.capture = { text: "", depth: 0, inString: false, escaped: false };
      return rest;
    }
    // A name not followed by an object (a value `"usage"`, `"usage": null`): keep looking.
    return rest;
  }

  /** Reads on in the object; what follows its end is looked through again. */
  private continueCapture(text: string): string {
    const capture = this.capture!;
    const closed = readObject(capture, text);
    if (closed === null) {
      capture.text += text;
      if (capture.text.length > MAX_USAGE_CHARACTERS) this.capture = null;
      return "";
    }
    try {
      this.found = JSON.parse(capture.text + text.slice(0, closed));
    } catch {
      // Not an object after all: keep looking.
    }
    this.capture = null;
    return text.slice(closed);
  }
}

/** generateContent's answer as text pieces, its `usageMetadata` given to `onEnd`. */
export function readingPassedOnUsage(
  pieces: AsyncIterator<string>,
  onEnd: (usage: UsageMetadata | undefined) => void,
): AsyncIterator<string> {
  const scanner = new UsageScanner("usageMetadata");
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const found = scanner.found;
    onEnd(typeof found === "object" && found !== null ? (found as UsageMetadata) : undefined);
  };
  return {
    async next() {
      try {
        const result = await pieces.next();
        if (result.done) end();
        else scanner.push(result.value);
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

/**
 * A body of bytes passed on unchanged, its last `"{member}"` object given to `onEnd` (what
 * was found, unknown: the caller checks its shape) once it ends, fails or is cancelled.
 */
export function passingOnUsage(
  body: ReadableStream<Uint8Array>,
  member: string,
  onEnd: (usage: unknown) => void,
): ReadableStream<Uint8Array> {
  const scanner = new UsageScanner(member);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd(scanner.found);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          scanner.push(decoder.decode());
          end();
          controller.close();
          return;
        }
        scanner.push(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason);
    },
  });
}

/**
 * Reads `text` on in `capture` (its state moved along); where in `text` the object ends
 * (exclusive), or null when it goes on.
 */
function readObject(capture: Capture, text: string): number | null {
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (capture.inString) {
      if (capture.escaped) capture.escaped = false;
      else if (character === "\\") capture.escaped = true;
      else if (character === '"') capture.inString = false;
    } else if (character === '"') capture.inString = true;
    else if (character === "{") capture.depth++;
    else if (character === "}" && --capture.depth === 0) return index + 1;
  }
  return null;
}
