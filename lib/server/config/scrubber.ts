import "server-only";

/**
 * The one scrubber: what the gateway removes from everything the upstream says before a
 * client sees it (2xx answers, errors, upload answers, headers it passes on, stream text
 * across events), and what the server's log removes from every line. A secret is removed in
 * every encoding it could travel in (any letter case, any of its characters percent-encoded
 * or JSON `\u`-escaped, hex, base64 and base64url at each of the three byte alignments a
 * longer value could put it in); for the gateway also the upstream's own origin (likewise
 * spelled, `/` also as JSON's `\/`), removed so its URLs become paths on the studio. One
 * regular expression without nested repetition: linear in the text.
 */

const REDACTED = "[redacted]";
/** Longest `?key=` value cut from error messages (keys of any client, not only ours). */
const QUERY_KEY = /([?&]key=)[^&\s"'\\]{1,512}/gi;

/** With no secret to look for: only `?key=` values are cut. */
const QUERY_KEYS_ONLY: Scrubber = {
  text: (text) => text.replace(QUERY_KEY, `$1${REDACTED}`),
  json<T>(value: T, options: { queryKeys?: boolean } = {}): T {
    const serialised = options.queryKeys ? JSON.stringify(value) : undefined;
    if (serialised === undefined) return value;
    return JSON.parse(serialised.replace(QUERY_KEY, `$1${REDACTED}`)) as T;
  },
  pieces: () => ({ push: (piece: string) => piece, end: () => "" }),
  deltas: () => ({ push: (delta: string) => delta, end: () => "" }),
};

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
 * A test of whether a text could be the beginning of a secret as `spelled` (not raw) and its
 * encodings write it: whole character forms, then perhaps a cut `%` escape; or the start of
 * its hex or base64 form. Each test is linear in the secret's length.
 */
function secretBeginnings(secrets: readonly string[]): (text: string) => boolean {
  const spellings = secrets.map((secret) => {
    const forms = [...secret].map(
      (character) => `(?:${escapeRegExp(character)}|%${hex(character.charCodeAt(0), 2)})`,
    );
    const nested = forms.reduceRight((inner, form) => `(?:${form}${inner})?`, "");
    return new RegExp(`^${nested}(?:%[0-9a-f]?)?$`, "i");
  });
  const encoded = secrets.flatMap((secret) => {
    const bytes = Buffer.from(secret, "utf8");
    return [bytes.toString("hex"), ...base64Cores(bytes)].map((form) => form.toLowerCase());
  });
  return (text) => {
    const lower = text.toLowerCase();
    return (
      spellings.some((pattern) => pattern.test(text)) ||
      encoded.some((form) => form.length > lower.length && form.startsWith(lower))
    );
  };
}

/** Characters a delta must end in that could begin a secret before they are held back. */
const MIN_HELD_CHARACTERS = 8;

/**
 * One expression for every spelling of the origin (group 1, removed; none when null) and of
 * each secret (redacted): spelled out as above, and as hex and base64 of the secret, which no
 * per-character pattern can see. Case-insensitive: a key in upper case is still the key.
 */
function scrubPattern(secrets: readonly string[], origin: string | null, raw: boolean) {
  const patterns = secrets.map((secret) => spelled(secret, raw));
  const encoded = secrets
    .flatMap((secret) => {
      const bytes = Buffer.from(secret, "utf8");
      return [bytes.toString("hex"), ...base64Cores(bytes)];
    })
    .filter((form) => form.length >= 8)
    .sort((a, b) => b.length - a.length);
  const originPattern = origin === null ? null : spelled(origin, raw);
  const alternatives = [
    ...patterns.map((pattern) => pattern.source),
    ...encoded.map(escapeRegExp),
  ].join("|");
  return {
    expression: new RegExp(
      originPattern ? `(${originPattern.source})|${alternatives}` : `(?!)()|${alternatives}`,
      "gi",
    ),
    longest: Math.max(
      originPattern?.longest ?? 0,
      ...patterns.map((pattern) => pattern.longest),
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
  /**
   * Scrubs one text that reaches a client in deltas (a stream's text, event by event), where
   * a secret split between two events would be whole again once the client joins them. Unlike
   * `pieces`, a delta passes as it is unless it ends in MIN_HELD_CHARACTERS or more that could
   * begin a secret: those wait for the next delta. A secret split after fewer characters is
   * cut from the next delta on, so at most its first MIN_HELD_CHARACTERS - 1 were shown.
   */
  deltas(): { push(delta: string): string; end(): string };
}

/** The gateway's scrubber: the upstream key and the upstream's origin. */
export function createScrubber(apiKey: string, baseUrl: string): Scrubber {
  return scrubberOf([apiKey], new URL(baseUrl).origin);
}

/**
 * A scrubber of `secrets` alone (each of 8 characters or more), in every spelling the
 * gateway's scrubber knows: what the server's log lines pass through.
 */
export function createSecretsScrubber(secrets: readonly string[]): Scrubber {
  return scrubberOf(
    secrets.filter((secret) => secret.length >= 8),
    null,
  );
}

function scrubberOf(secrets: readonly string[], origin: string | null): Scrubber {
  if (secrets.length === 0 && origin === null) return QUERY_KEYS_ONLY;
  const inJson = scrubPattern(secrets, origin, false).expression;
  const { expression: inRaw, longest } = scrubPattern(secrets, origin, true);
  const replace = (_match: string, originMatch: string | undefined) =>
    originMatch !== undefined ? "" : REDACTED;
  const beginsSecret = secretBeginnings(secrets);
  const longestInJson = scrubPattern(secrets, origin, false).longest;

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
    deltas() {
      /** The end of what was shown, where a match finished by a later delta may begin. */
      let shown = "";
      let held = "";
      return {
        push(delta) {
          const text = held + delta;
          const window = shown + text;
          let output = "";
          let position = shown.length;
          inJson.lastIndex = 0;
          for (let found = inJson.exec(window); found; found = inJson.exec(window)) {
            const end = found.index + found[0].length;
            if (end <= shown.length) continue;
            const start = Math.max(found.index, position);
            output += window.slice(position, start);
            output += found.index >= shown.length ? replace(found[0], found[1]) : REDACTED;
            position = end;
          }
          output += window.slice(position);
          let cut = output.length;
          for (
            let start = Math.max(0, output.length - (longestInJson - 1));
            start <= output.length - MIN_HELD_CHARACTERS;
            start++
          ) {
            if (beginsSecret(output.slice(start))) {
              cut = start;
              break;
            }
          }
          held = output.slice(cut);
          const passed = output.slice(0, cut);
          shown = (shown + passed).slice(-longestInJson);
          return passed;
        },
        end() {
          const rest = held;
          held = "";
          return rest;
        },
      };
    },
  };
}
