import "server-only";

/**
 * What the gateway removes from everything the upstream says before a client sees it, 2xx
 * answers included: the server key in every encoding it could travel in (any letter case,
 * any of its characters percent-encoded or JSON `\u`-escaped, hex, base64 and base64url at
 * each of the three byte alignments a longer value could put it in), and the upstream's own
 * origin (likewise spelled, `/` also as JSON's `\/`), which is removed so its URLs become
 * paths on the studio. One regular expression without nested repetition: linear in the text.
 */

const REDACTED = "[redacted]";
/** Longest `?key=` value cut from error messages (keys of any client, not only ours). */
const QUERY_KEY = /([?&]key=)[^&\s"'\\]{1,512}/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, "0");
}

/** The key as it reads inside a longer base64 text that starts `offset` bytes before it. */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const first = Math.ceil((offset * 8) / 6);
    const last = Math.floor(((offset + bytes.length) * 8) / 6);
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    for (const encoding of ["base64", "base64url"] as const)
      cores.push(padded.toString(encoding).slice(first, last));
  }
  return cores;
}

/**
 * A pattern for `text` with any of its characters percent-encoded (and, in raw JSON text,
 * `\u`-escaped, `/` also as `\/`), in any mix: one alternation per character, so matching
 * stays linear. Also answers the longest text it can match.
 */
function spelled(text: string, raw: boolean): { source: string; longest: number } {
  const characters = [...text].map((character) => {
    const code = character.charCodeAt(0);
    const forms = [escapeRegExp(character), `%${hex(code, 2)}`];
    if (raw) forms.push(`\\\\u${hex(code, 4)}`);
    if (raw && character === "/") forms.push("\\\\/");
    return `(?:${forms.join("|")})`;
  });
  return { source: characters.join(""), longest: text.length * (raw ? 6 : 3) };
}

/**
 * One expression for every spelling of the origin (group 1, removed) and the key (redacted):
 * spelled out as above, and as hex and base64 of the key, which no per-character pattern
 * can see. Case-insensitive: a key in upper case is still the key.
 */
function scrubPattern(apiKey: string, origin: string, raw: boolean) {
  const bytes = Buffer.from(apiKey, "utf8");
  const encoded = [bytes.toString("hex"), ...base64Cores(bytes)]
    .filter((form) => form.length >= 8)
    .sort((a, b) => b.length - a.length);
  const originPattern = spelled(origin, raw);
  const keyPattern = spelled(apiKey, raw);
  return {
    expression: new RegExp(
      `(${originPattern.source})|${keyPattern.source}|${encoded.map(escapeRegExp).join("|")}`,
      "gi",
    ),
    longest: Math.max(
      originPattern.longest,
      keyPattern.longest,
      ...encoded.map((form) => form.length),
    ),
  };
}

export interface Scrubber {
  /** A text (an error message, a log line) with the key and the upstream's origin removed, and any `?key=` value. */
  text(text: string): string;
  /**
   * A JSON value with every string and property name scrubbed (a copy; the value's
   * serialised form is what is scanned). `queryKeys` also cuts `?key=` values, as `text` does.
   */
  json<T>(value: T, options?: { queryKeys?: boolean }): T;
  /**
   * Scrubs text that arrives in pieces (raw JSON included): each piece answers what can be
   * passed on, holding back at most one match's length; `end` answers the rest.
   */
  pieces(): { push(piece: string): string; end(): string };
}

export function createScrubber(apiKey: string, baseUrl: string): Scrubber {
  const origin = new URL(baseUrl).origin;
  const inJson = scrubPattern(apiKey, origin, false).expression;
  const { expression: inRaw, longest } = scrubPattern(apiKey, origin, true);
  const replace = (_match: string, originMatch: string | undefined) =>
    originMatch !== undefined ? "" : REDACTED;

  return {
    text: (text) => text.replace(inRaw, replace).replace(QUERY_KEY, `$1${REDACTED}`),
    json<T>(value: T, options: { queryKeys?: boolean } = {}): T {
      const serialised = JSON.stringify(value);
      if (serialised === undefined) return value;
      let scrubbed = serialised.replace(inJson, replace);
      if (options.queryKeys) scrubbed = scrubbed.replace(QUERY_KEY, `$1${REDACTED}`);
      return scrubbed === serialised ? value : (JSON.parse(scrubbed) as T);
    },
    pieces() {
      let held = "";
      return {
        push(piece) {
          const text = held + piece;
          // Text that may still be the start of a match stays held; a match that began
          // before that point is finished here, as a whole.
          let safe = Math.max(0, text.length - (longest - 1));
          let output = "";
          let position = 0;
          inRaw.lastIndex = 0;
          for (let found = inRaw.exec(text); found; found = inRaw.exec(text)) {
            if (found.index >= safe) break;
            output += text.slice(position, found.index) + replace(found[0], found[1]);
            position = found.index + found[0].length;
            safe = Math.max(safe, position);
          }
          held = text.slice(safe);
          return output + text.slice(position, safe);
        },
        end() {
          const rest = held.replace(inRaw, replace);
          held = "";
          return rest;
        },
      };
    },
  };
}
