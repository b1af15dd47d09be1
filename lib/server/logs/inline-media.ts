/**
 * Leaves inline media out of JSON text that arrives in pieces (a request body, an answer, a
 * stream's `data:` events): the string value of every `data` member (the service's
 * `inlineData.data`, the Interactions API's media `data`, the OpenAI endpoint's `input_audio`
 * `data`) and every string that is a `data:` URL (OpenAI `image_url.url`), each replaced by a
 * note of its length. One pass over the characters, holding back at most the first five
 * characters of a string while it is told whether it is a `data:` URL: linear, and a piece is
 * passed on as soon as it is read. Anything that is not JSON passes as it is.
 */

const DATA_URL_PREFIX = "data:";
/** Longest key remembered (longer keys are never `data`). */
const KEY_LIMIT = 16;

export interface MediaElider {
  push(text: string): string;
  end(): string;
}

export function mediaNote(characters: number): string {
  return `[inline data not logged: ${characters} characters]`;
}

export function createMediaElider(): MediaElider {
  let inString = false;
  let escaped = false;
  /** The string being read: its first characters (up to KEY_LIMIT), to know keys and data URLs. */
  let head = "";
  let headLength = 0;
  /** What the string being read is: undecided, passed on, or left out (counting its characters). */
  let mode: "undecided" | "pass" | "elide" = "pass";
  let elided = 0;
  /** The last string read and whether a `:` followed it: the key of the value that comes next. */
  let lastString: string | null = null;
  let key: string | null = null;
  let afterColon = false;
  /** Text of an undecided string held back until it is decided. */
  let held = "";

  const decide = (elide: boolean): string => {
    mode = elide ? "elide" : "pass";
    if (elide) {
      // The opening quote was held too: it is passed on, the rest counts as left out.
      elided = held.length - 1;
      held = "";
      return '"';
    }
    const passed = held;
    held = "";
    return passed;
  };

  return {
    push(text) {
      let output = "";
      let from = 0;
      for (let index = 0; index < text.length; index++) {
        const character = text[index]!;
        if (!inString) {
          if (character === '"') {
            output += text.slice(from, index);
            from = index;
            inString = true;
            escaped = false;
            head = "";
            headLength = 0;
            const isValue = afterColon;
            afterColon = false;
            if (isValue && key === "data") {
              mode = "elide";
              elided = 0;
              output += '"';
              from = index + 1;
            } else if (isValue) {
              mode = "undecided";
              held = '"';
              from = index + 1;
            } else {
              mode = "pass";
            }
          } else if (character === ":") {
            key = lastString;
            afterColon = true;
          } else if (
            character !== " " &&
            character !== "\n" &&
            character !== "\r" &&
            character !== "\t"
          ) {
            afterColon = false;
            lastString = null;
          }
          continue;
        }
        // Inside a string.
        const closing = !escaped && character === '"';
        if (escaped) escaped = false;
        else if (character === "\\") escaped = true;
        if (!closing && headLength < KEY_LIMIT) {
          head += character;
          headLength++;
        }
        if (mode === "elide") {
          if (closing) {
            output += `${mediaNote(elided)}"`;
            from = index + 1;
            inString = false;
            lastString = null;
          } else {
            elided++;
            from = index + 1;
          }
          continue;
        }
        if (mode === "undecided") {
          if (closing) {
            held += character;
            output += decide(false);
            from = index + 1;
          } else {
            held += character;
            from = index + 1;
            if (headLength >= DATA_URL_PREFIX.length)
              output += decide(head.slice(0, DATA_URL_PREFIX.length) === DATA_URL_PREFIX);
          }
          if (closing) {
            inString = false;
            lastString = headLength < KEY_LIMIT ? head : null;
          }
          continue;
        }
        if (closing) {
          inString = false;
          lastString = headLength < KEY_LIMIT ? head : null;
        }
      }
      if (mode === "elide" && inString) return output;
      return output + text.slice(from);
    },
    end() {
      const rest = held;
      held = "";
      if (inString && mode === "elide") return mediaNote(elided);
      return rest;
    },
  };
}

/** `text` with its inline media left out (a whole body at once). */
export function withoutInlineMedia(text: string): string {
  const elider = createMediaElider();
  return elider.push(text) + elider.end();
}
