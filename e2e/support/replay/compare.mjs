/**
 * Compares one answer with the service's recorded answer to the same request, category by
 * category: status, error status and message, shape (fields present and absent, upload
 * headers), formats of ids, names and timestamps, the resolved model, stream framing, and the
 * prompt token count. Never the answer text: no emulator can know it. The format rules are
 * learned from all recordings at once (the service's formats), never from the one compared.
 */

/** Subtrees whose keys are chosen by the caller's data, not by the API: compared as one field. */
const OPAQUE_SUFFIXES = [".functionCall.args", ".functionResponse.response"];

/**
 * Response headers echoed from the service's front end into the upload protocol's
 * `x-goog-upload-header-*` space (its routing and cost internals), not part of the API.
 */
const FRONT_END_HEADER = /^x-goog-upload-header-(?:x-google-|vary$)/;

/** Fields whose value formats are compared, by field name. */
const ID_FIELDS = new Set(["responseId"]);
const TIME_FIELDS = new Set([
  "createTime",
  "updateTime",
  "expireTime",
  "expirationTime",
  // The Interactions API's.
  "created",
  "updated",
]);
const NAME_FIELDS = new Set(["name"]);

/**
 * Reads an answer: the status, the lower-cased headers and the body, parsed as JSON or as a
 * stream's events. A stream asked with `alt=sse` (`eventStream`) is server-sent events, and
 * `framing` lists what breaks the service's SSE framing (each event one
 * `data: <single-line JSON>` followed by `\r\n\r\n`, nothing else); one asked without it is
 * one JSON array of the same events.
 */
export function parseAnswer({ operation, status, headers, body, eventStream = true }) {
  const lowered = {};
  for (const [name, value] of Object.entries(headers ?? {})) lowered[name.toLowerCase()] = value;
  const answer = { status, headers: lowered, body };
  if (operation === "streamGenerateContent" && status === 200) {
    const { events, problems } = eventStream ? readEvents(body) : readArray(body);
    answer.events = events;
    answer.framing = problems;
    return answer;
  }
  if (operation === "interactions.create" && status === 200 && eventStream) {
    const { events, problems } = readInteractionEvents(body);
    answer.events = events;
    answer.framing = problems;
    return answer;
  }
  if (body.trim() === "") return answer;
  try {
    answer.json = JSON.parse(body);
  } catch {
    answer.parseProblem = "the body is not JSON";
  }
  return answer;
}

/** Splits an SSE body into its events, strictly, listing every framing problem. */
export function readEvents(body) {
  const events = [];
  const problems = [];
  const pieces = body.split("\r\n\r\n");
  const tail = pieces.pop();
  if (tail !== "")
    problems.push(`trailing bytes after the last event: ${JSON.stringify(tail.slice(0, 40))}`);
  for (const piece of pieces) {
    if (!piece.startsWith("data: ")) {
      problems.push(`a block that is not one data line: ${JSON.stringify(piece.slice(0, 40))}`);
      continue;
    }
    const data = piece.slice(6);
    if (/[\r\n]/.test(data)) {
      problems.push("an event of more than one line");
      continue;
    }
    try {
      events.push(JSON.parse(data));
    } catch {
      problems.push("an event whose data is not JSON");
    }
  }
  if (events.length === 0 && problems.length === 0) problems.push("no event at all");
  return { events, problems };
}

/**
 * Splits an Interactions stream into its events, strictly: blocks `event: <type>` /
 * `data: <single-line JSON whose event_type is that type>` ended by a blank line (LF), the
 * last `event: done` / `data: [DONE]`, nothing else (recorded 2026-01 on).
 */
export function readInteractionEvents(body) {
  const events = [];
  const problems = [];
  const blocks = body.split("\n\n");
  const tail = blocks.pop();
  if (tail !== "")
    problems.push(`trailing bytes after the last event: ${JSON.stringify(tail.slice(0, 40))}`);
  if (blocks.at(-1) !== "event: done\ndata: [DONE]") problems.push("no `event: done` at the end");
  else blocks.pop();
  for (const block of blocks) {
    const match = /^event: ([a-z_.]+)\ndata: (.*)$/.exec(block);
    if (!match || /[\r\n]/.test(match[2])) {
      problems.push(
        `a block that is not one event line and one data line: ${JSON.stringify(block.slice(0, 40))}`,
      );
      continue;
    }
    try {
      const event = JSON.parse(match[2]);
      if (event?.event_type !== match[1])
        problems.push(`an event whose event_type is not its event line`);
      events.push(event);
    } catch {
      problems.push("an event whose data is not JSON");
    }
  }
  if (events.length === 0 && problems.length === 0) problems.push("no event at all");
  return { events, problems };
}

/**
 * Interactions stream framing: ours framed as readInteractionEvents reads the service's, and
 * opening and ending with the same event types as the service's stream.
 */
export function compareInteractionFraming(recorded, ours) {
  const problems = [...(ours.framing ?? [])];
  const expected = recorded.events ?? [];
  const actual = ours.events ?? [];
  for (const [at, which] of [
    [0, "first"],
    [-1, "last"],
  ]) {
    const want = expected.at(at)?.event_type;
    const got = actual.at(at)?.event_type;
    if (want !== got) problems.push(`the ${which} event is ${got}; the service's ${want}`);
  }
  return problems;
}

/** Splits a stream answered as one JSON array (no `alt=sse`) into its events. */
export function readArray(body) {
  try {
    const events = JSON.parse(body);
    if (Array.isArray(events) && events.length) return { events, problems: [] };
    return { events: [], problems: ["the body is not a JSON array of events"] };
  } catch {
    return { events: [], problems: ["the body is not JSON"] };
  }
}

/** Every field path of a JSON value (`.a.b`, arrays as `[]`), opaque subtrees as one path. */
export function fieldPaths(value, prefix = "", out = new Set()) {
  if (Array.isArray(value)) {
    for (const item of value) fieldPaths(item, `${prefix}[]`, out);
    return out;
  }
  if (value === null || typeof value !== "object") return out;
  for (const [key, child] of Object.entries(value)) {
    const path = `${prefix}.${key}`;
    out.add(path);
    if (!OPAQUE_SUFFIXES.some((suffix) => path.endsWith(suffix))) fieldPaths(child, path, out);
  }
  return out;
}

/** The field paths of an answer: its JSON, or the union over its stream events, plus upload headers. */
export function answerPaths(answer) {
  const out = new Set();
  if (answer.events) for (const event of answer.events) fieldPaths(event, "", out);
  else if (answer.json !== undefined) fieldPaths(answer.json, "", out);
  for (const name of Object.keys(answer.headers)) {
    if (name.startsWith("x-goog-upload-") && !FRONT_END_HEADER.test(name))
      out.add(`header:${name}`);
  }
  return out;
}

/** Fields the recorded answer has and ours lacks, and the other way round. */
export function compareShape(recorded, ours) {
  const expected = answerPaths(recorded);
  const actual = answerPaths(ours);
  const missing = [...expected].filter((path) => !actual.has(path)).sort();
  const extra = [...actual].filter((path) => !expected.has(path)).sort();
  const recordedType = mediaType(recorded.headers["content-type"]);
  const ourType = mediaType(ours.headers["content-type"]);
  if (recordedType && recordedType !== ourType) {
    missing.push(`header:content-type=${recordedType}`);
    if (ourType) extra.push(`header:content-type=${ourType}`);
  }
  return { missing, extra };
}

function mediaType(value) {
  if (!value) return null;
  return String(value).toLowerCase().replace(/\s+/g, "");
}

/** The error object of an error answer, or null. */
export function errorOf(answer) {
  const error = answer.json?.error;
  return error && typeof error === "object" ? error : null;
}

/** The `@type`s of an error's details, sorted. */
export function detailTypes(error) {
  return (Array.isArray(error?.details) ? error.details : [])
    .map((detail) => String(detail?.["@type"] ?? "").replace("type.googleapis.com/", ""))
    .sort();
}

/** The usage metadata that counts: the unary answer's, or the last stream event's. */
export function finalUsage(answer) {
  if (answer.events) {
    for (let index = answer.events.length - 1; index >= 0; index--) {
      if (answer.events[index]?.usageMetadata) return answer.events[index].usageMetadata;
    }
    return undefined;
  }
  return answer.json?.usageMetadata;
}

/** promptTokenCount of a generation answer, totalTokens of a countTokens answer. */
export function promptTokens(operation, answer) {
  if (operation === "countTokens") return answer.json?.totalTokens;
  return finalUsage(answer)?.promptTokenCount;
}

/** An answer's implicit-cache count: usageMetadata.cachedContentTokenCount of its last usage. */
export function implicitCacheTokens(answer) {
  return finalUsage(answer)?.cachedContentTokenCount;
}

/** The modelVersion values an answer carries (one per event for streams). */
function modelVersions(answer) {
  const values = answer.events
    ? answer.events.map((event) => event.modelVersion)
    : [answer.json?.modelVersion];
  return [...new Set(values.filter((value) => value !== undefined))];
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.(\d+))?Z$/;

function fractionDigits(value) {
  const match = TIMESTAMP.exec(value);
  return match ? (match[1] ?? "").length : null;
}

/** Visits every string value of a JSON value whose field name is in `names`. */
function visitStrings(value, names, visit, key = "") {
  if (Array.isArray(value)) {
    for (const item of value) visitStrings(item, names, visit, key);
    return;
  }
  if (value === null || typeof value !== "object") {
    if (typeof value === "string" && names.has(key)) visit(key, value);
    return;
  }
  for (const [childKey, child] of Object.entries(value))
    visitStrings(child, names, visit, childKey);
}

const FORMAT_NAMES = new Set([...ID_FIELDS, ...TIME_FIELDS, ...NAME_FIELDS]);

function answerValues(answer) {
  return answer.events ?? (answer.json === undefined ? [] : [answer.json]);
}

/** The format class of a field's value: which rule table entry it is checked against. */
function formatKey(field, value) {
  if (NAME_FIELDS.has(field)) {
    const slash = value.indexOf("/");
    return slash > 0 ? `name:${value.slice(0, slash)}` : null;
  }
  return field;
}

/** The part of a value whose characters and length are checked (the id after the collection). */
function formatSubject(field, value) {
  return NAME_FIELDS.has(field) ? value.slice(value.indexOf("/") + 1) : value;
}

/**
 * Learns the service's formats from every recorded answer: per id and name field the
 * characters used and the lengths seen, per timestamp field the fractional digits seen.
 */
export function learnFormats(exchanges) {
  const rules = new Map();
  for (const exchange of exchanges) {
    if (exchange.status >= 300) continue;
    const answer = parseAnswer({
      operation: exchange.operation,
      status: exchange.status,
      headers: exchange.responseHeaders,
      body: exchange.responseBody,
      eventStream: exchange.query?.alt === "sse",
    });
    for (const value of answerValues(answer)) {
      visitStrings(value, FORMAT_NAMES, (field, text) => {
        const key = formatKey(field, text);
        if (key === null) return;
        const rule = rules.get(key) ?? {
          characters: new Set(),
          lengths: new Set(),
          digits: new Set(),
        };
        if (TIME_FIELDS.has(field)) {
          const digits = fractionDigits(text);
          if (digits !== null) rule.digits.add(digits);
        } else {
          const subject = formatSubject(field, text);
          for (const character of subject) rule.characters.add(character);
          rule.lengths.add(subject.length);
        }
        rules.set(key, rule);
      });
    }
  }
  return rules;
}

function characterClass(characters) {
  const classes = [];
  const all = [...characters].join("");
  if (/[a-z]/.test(all)) classes.push("a-z");
  if (/[A-Z]/.test(all)) classes.push("A-Z");
  if (/[0-9]/.test(all)) classes.push("0-9");
  // "/" is in the ids of nested names (a store's documents and operations).
  for (const special of "-_./")
    if (all.includes(special))
      classes.push(special === "-" ? "\\-" : special === "/" ? "\\/" : special);
  return new RegExp(`^[${classes.join("")}]*$`);
}

/** What in our answer breaks the learned formats, and whether the resolved model matches. */
export function compareFormats(rules, recorded, ours) {
  const problems = [];
  for (const value of answerValues(ours)) {
    visitStrings(value, FORMAT_NAMES, (field, text) => {
      const key = formatKey(field, text);
      const rule = key === null ? undefined : rules.get(key);
      if (!rule) return;
      if (TIME_FIELDS.has(field)) {
        const digits = fractionDigits(text);
        if (digits === null || !rule.digits.has(digits))
          problems.push(
            `${field} ${JSON.stringify(text)}: the service writes ${[...rule.digits].join(" or ")} fractional digits`,
          );
        return;
      }
      const subject = formatSubject(field, text);
      const lengths = [...rule.lengths].sort((left, right) => left - right);
      if (!rule.lengths.has(subject.length) || !characterClass(rule.characters).test(subject))
        problems.push(
          `${key} ${JSON.stringify(text)}: the service's are ${lengths.join(", ")} characters of ${characterClass(rule.characters).source}`,
        );
    });
  }
  const expected = modelVersions(recorded);
  const actual = modelVersions(ours);
  if (expected.length && (actual.length !== 1 || actual[0] !== expected[0]))
    problems.push(
      `modelVersion ${JSON.stringify(actual)}; the service ${JSON.stringify(expected[0])}`,
    );
  return [...new Set(problems)];
}

function hasAnswerText(event) {
  return (event?.candidates ?? []).some((candidate) =>
    (candidate?.content?.parts ?? []).some(
      (part) =>
        (typeof part.text === "string" && part.text !== "") || part.functionCall || part.inlineData,
    ),
  );
}

function placement(events, has) {
  const flags = events.map(has);
  if (flags.every(Boolean)) return "every event";
  if (!flags.some(Boolean)) return "no event";
  if (flags.length > 1 && flags.at(-1) && !flags.slice(0, -1).some(Boolean))
    return "the last event";
  return "some events";
}

const PLACED_FIELDS = [
  ["modelVersion", (event) => event.modelVersion !== undefined],
  ["responseId", (event) => event.responseId !== undefined],
  ["usageMetadata", (event) => event.usageMetadata !== undefined],
  ["finishReason", (event) => (event.candidates ?? []).some((candidate) => candidate.finishReason)],
];

/**
 * Stream framing: ours framed exactly as the service frames (see readEvents), the first
 * event carrying answer content when the service's does, and modelVersion, responseId,
 * usageMetadata and finishReason on the same events (every one, or the last only).
 */
export function compareFraming(recorded, ours) {
  const problems = [...(ours.framing ?? [])];
  const expected = recorded.events ?? [];
  const actual = ours.events ?? [];
  if (!expected.length || !actual.length) return problems;
  if (hasAnswerText(expected[0]) && !hasAnswerText(actual[0]))
    problems.push("the first event carries no answer content; the service's does");
  const single = expected.length === 1 || actual.length === 1;
  for (const [field, has] of PLACED_FIELDS) {
    const want = placement(expected, has);
    const got = placement(actual, has);
    // With one event on either side, "every event" and "the last event" cannot be told apart.
    const comparable = !single || (want !== "some events" && got !== "some events");
    const same = single ? has(expected.at(-1)) === has(actual.at(-1)) : want === got;
    if (comparable && !same) problems.push(`${field} on ${got}; the service puts it on ${want}`);
  }
  return problems;
}
