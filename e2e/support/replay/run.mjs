/**
 * The replay conformance run: every recorded request sent to a server (the local engine, or
 * a gateway in front of the replay upstream), recording by recording in recorded order, and
 * each answer compared with the service's (compare.mjs). Names the server gives to what a
 * recording creates (caches, files, file search stores and their documents, upload sessions) are used in that recording's later
 * requests, as a client would. A request recorded with a key the service refused is sent
 * with a key this server refuses too (the recordings drop key values).
 */
import {
  compareFormats,
  compareFraming,
  compareInteractionFraming,
  compareShape,
  detailTypes,
  errorOf,
  implicitCacheTokens,
  learnFormats,
  parseAnswer,
  promptTokens,
} from "./compare.mjs";
import { ALLOW_RULES } from "./allow-rules.mjs";
import { isCompared } from "./compared-operations.mjs";
import { groupExchanges, isEventStream, isGeneration, requestedModel } from "./exchanges.mjs";
import { currentTurnSignatures, learnSignatures } from "./signatures.mjs";

export const CATEGORIES = [
  ["status", "same status"],
  ["errorStatus", "error.status of recorded errors"],
  ["errorMessage", "error message of recorded errors"],
  ["shape", "fields as recorded (none missing or extra)"],
  ["formats", "formats and resolved model"],
  ["framing", "stream framing"],
  ["promptTokens", "prompt tokens exact"],
  ["cacheTokens", "cache tokens exact"],
  ["implicitCacheTokens", "implicit-cache tokens exact (where recorded)"],
];

const INVALID_KEY = "replay-invalid-key-not-configured";

function refusedKey(exchange) {
  if (exchange.status < 400) return false;
  try {
    const details = JSON.parse(exchange.responseBody)?.error?.details ?? [];
    return details.some((detail) => detail?.reason === "API_KEY_INVALID");
  } catch {
    return false;
  }
}

/** Longest recorded name first: a document's name holds its store's. */
function substitute(text, names) {
  let result = text;
  const pairs = [...names].sort((left, right) => right[0].length - left[0].length);
  for (const [recorded, ours] of pairs) result = result.replaceAll(recorded, ours);
  return result;
}

function uploadIdOf(url) {
  try {
    return new URL(url).searchParams.get("upload_id");
  } catch {
    return null;
  }
}

/** Names of the service's resources a recording can make and later requests name. */
const RESOURCE_NAME = /\b(?:files|cachedContents|fileSearchStores)\/[A-Za-z0-9_.-]+/g;

/**
 * The resources a request names that no earlier exchange of its recording made (files
 * uploaded, caches and stores created outside the recording), from its path and body.
 */
function outsideResources(exchange, state) {
  const text = `${exchange.path} ${JSON.stringify(exchange.requestBody ?? "")}`;
  const made = [...state.names.keys()];
  return [...new Set(text.match(RESOURCE_NAME) ?? [])].filter(
    (name) => !made.some((recorded) => recorded === name || recorded.startsWith(`${name}/`)),
  );
}

/**
 * The resumable upload protocol's headers, for a recorder that kept none of them (the client
 * sent them: the service answered the recorded start with an upload URL): a start, and one
 * chunk that uploads everything and finalizes.
 */
function uploadProtocolHeaders(exchange) {
  const kept = Object.keys(exchange.requestHeaders ?? {}).some((name) =>
    name.startsWith("x-goog-upload-"),
  );
  if (kept) return {};
  if (exchange.operation.endsWith(".upload.start"))
    return { "x-goog-upload-protocol": "resumable", "x-goog-upload-command": "start" };
  if (exchange.operation.endsWith(".upload.chunk"))
    return { "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" };
  return {};
}

/** The request to send for a recorded exchange, with the names learned so far put in. */
function buildRequest(exchange, state, baseUrl, key) {
  let target;
  const recordedUpload = exchange.query?.upload_id;
  if (recordedUpload && state.uploads.has(recordedUpload)) {
    target = new URL(state.uploads.get(recordedUpload), baseUrl);
  } else {
    target = new URL(substitute(exchange.path, state.names), baseUrl);
    for (const [name, value] of Object.entries(exchange.query ?? {}))
      target.searchParams.set(name, substitute(value, state.names));
  }
  const headers = {
    ...uploadProtocolHeaders(exchange),
    ...exchange.requestHeaders,
    "x-goog-api-key": refusedKey(exchange) ? INVALID_KEY : key,
  };
  let body;
  if (exchange.requestBodyEncoding === "json")
    body = substitute(JSON.stringify(exchange.requestBody), state.names);
  else if (exchange.requestBodyEncoding === "base64")
    body = Buffer.from(exchange.requestBody, "base64");
  return { url: target, init: { method: exchange.method, headers, body } };
}

/** Remembers the names our answer gave to what the recorded answer created. */
function learnNames(exchange, recorded, ours, state) {
  if (exchange.status >= 300 || ours.status >= 300) return;
  const pairs = [];
  const resourceOf = (json) => json?.file ?? json;
  const recordedResource = resourceOf(recorded.json);
  const ourResource = resourceOf(ours.json);
  if (typeof recordedResource?.name === "string" && typeof ourResource?.name === "string")
    pairs.push([recordedResource.name, ourResource.name]);
  if (typeof recordedResource?.uri === "string" && typeof ourResource?.uri === "string")
    pairs.push([recordedResource.uri, ourResource.uri]);
  // An interaction's id (of the answer, or of a stream's first event), named by later requests.
  const interactionId = (answer) => answer.json?.id ?? answer.events?.[0]?.interaction?.id;
  if (exchange.operation === "interactions.create") {
    const recordedId = interactionId(recorded);
    const ourId = interactionId(ours);
    if (typeof recordedId === "string" && typeof ourId === "string" && recordedId !== ourId)
      state.names.set(recordedId, ourId);
  }
  // A store upload's operation names the document it made.
  const recordedDocument = recorded.json?.response?.documentName;
  const ourDocument = ours.json?.response?.documentName;
  if (typeof recordedDocument === "string" && typeof ourDocument === "string")
    pairs.push([recordedDocument, ourDocument]);
  for (const [recordedName, ourName] of pairs)
    if (
      recordedName !== ourName &&
      /^(?:cachedContents|files|fileSearchStores)\/|\/files\//.test(recordedName)
    )
      state.names.set(recordedName, ourName);
  const recordedUpload = uploadIdOf(recorded.headers["x-goog-upload-url"]);
  const ourUpload = ours.headers["x-goog-upload-url"];
  if (recordedUpload && ourUpload) {
    const url = new URL(ourUpload);
    state.uploads.set(recordedUpload, `${url.pathname}${url.search}`);
  }
}

/**
 * Sends every recorded request to `baseUrl` with studio key `key`. `onGroup` is called before
 * each recording (the gateway run points the replay upstream at it). Answers the raw results.
 */
export async function replayExchanges({ baseUrl, key, exchanges, onGroup, timeoutMs = 120_000 }) {
  const results = [];
  for (const { group, exchanges: list } of groupExchanges(exchanges)) {
    onGroup?.(group);
    const state = { names: new Map(), uploads: new Map() };
    for (const exchange of list) {
      const eventStream = isEventStream(exchange);
      const recorded = parseAnswer({
        operation: exchange.operation,
        status: exchange.status,
        headers: exchange.responseHeaders,
        body: exchange.responseBody,
        eventStream,
      });
      const { url, init } = buildRequest(exchange, state, baseUrl, key);
      const outside =
        exchange.operation.endsWith(".create") || exchange.operation.endsWith(".start")
          ? []
          : outsideResources(exchange, state);
      const started = performance.now();
      let ours;
      try {
        const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        const body = await response.text();
        ours = parseAnswer({
          operation: exchange.operation,
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body,
          eventStream,
        });
      } catch (error) {
        ours = { status: 0, headers: {}, body: "", failure: String(error?.message ?? error) };
      }
      results.push({
        exchange,
        recorded,
        ours,
        ms: performance.now() - started,
        outsideResources: outside,
      });
      learnNames(exchange, recorded, ours, state);
    }
  }
  return results;
}

/**
 * Judges each result per category. Each verdict: `applies`, `pass`, and `problems` (strings
 * naming what differs). Shape problems are field paths prefixed `missing ` or `extra `.
 */
export function judge(results, knowledge) {
  const servedByThinkingModel = thinkingWhereTheModelDoesNot(results);
  return results.map(({ exchange, recorded, ours, ms, outsideResources: outside }) => {
    const verdicts = {};
    const sameStatus = ours.status === exchange.status;
    const statusProblem = `status ${ours.status}${ours.failure ? ` (${ours.failure})` : ""}; the service ${exchange.status}`;
    verdicts.status = { applies: true, problems: sameStatus ? [] : [statusProblem] };
    const recordedError = errorOf(recorded);
    const ourError = errorOf(ours);
    if (exchange.status >= 400) {
      verdicts.errorStatus = {
        applies: true,
        problems:
          ourError?.status === recordedError?.status
            ? []
            : [`error.status ${ourError?.status}; the service ${recordedError?.status}`],
      };
      const message = (value) => String(value ?? "").trim();
      verdicts.errorMessage = {
        applies: true,
        expected: recordedError?.message,
        actual: ourError?.message,
        problems:
          message(ourError?.message) === message(recordedError?.message)
            ? []
            : [
                `message ${JSON.stringify(ourError?.message)}; the service ${JSON.stringify(recordedError?.message)}`,
              ],
      };
    }
    if (sameStatus) {
      const { missing, extra } = compareShape(recorded, ours);
      const problems = [
        ...missing.map((path) => `missing ${path}`),
        ...extra.map((path) => `extra ${path}`),
      ];
      if (recordedError && ourError) {
        const expected = detailTypes(recordedError).join(",");
        const actual = detailTypes(ourError).join(",");
        if (expected !== actual) problems.push(`details [${actual}]; the service [${expected}]`);
      }
      if (ours.parseProblem) problems.push(ours.parseProblem);
      verdicts.shape = { applies: true, problems };
    } else verdicts.shape = { applies: true, problems: [statusProblem] };
    if (exchange.status < 300) {
      verdicts.formats = {
        applies: true,
        problems: sameStatus ? compareFormats(knowledge.formats, recorded, ours) : [statusProblem],
      };
    }
    if (exchange.operation === "streamGenerateContent" && exchange.status === 200) {
      // Server-sent events, or the one JSON array of a stream asked without alt=sse.
      verdicts.framing = {
        applies: true,
        problems: sameStatus ? compareFraming(recorded, ours) : [statusProblem],
      };
    }
    if (exchange.operation === "interactions.create" && recorded.events) {
      verdicts.framing = {
        applies: true,
        problems: sameStatus ? compareInteractionFraming(recorded, ours) : [statusProblem],
      };
    }
    if (isGeneration(exchange.operation) && exchange.status < 300) {
      const expected = promptTokens(exchange.operation, recorded);
      if (expected !== undefined) {
        const actual = sameStatus ? promptTokens(exchange.operation, ours) : undefined;
        verdicts.promptTokens = {
          applies: true,
          expected,
          actual,
          signatures: currentTurnSignatures(exchange.requestBody, knowledge.signatures),
          problems:
            actual === expected
              ? []
              : [sameStatus ? `prompt tokens ${actual}; the service ${expected}` : statusProblem],
        };
      }
    }
    // Implicit caching: a recorded answer to a request naming no cache that reports cached
    // tokens (the caller's earlier prompt shared its prefix); exact, or how far off.
    const recordedImplicit =
      isGeneration(exchange.operation) &&
      exchange.status < 300 &&
      !exchange.requestBody?.cachedContent &&
      !exchange.requestBody?.cached_content
        ? implicitCacheTokens(recorded)
        : undefined;
    if (recordedImplicit !== undefined) {
      const actual = sameStatus ? implicitCacheTokens(ours) : undefined;
      verdicts.implicitCacheTokens = {
        applies: true,
        expected: recordedImplicit,
        actual,
        problems:
          actual === recordedImplicit
            ? []
            : [`implicit-cache tokens ${actual ?? "none"}; the service ${recordedImplicit}`],
      };
    }
    if (exchange.operation === "cachedContents.create" && exchange.status < 300) {
      const expected = recorded.json?.usageMetadata?.totalTokenCount;
      const actual = ours.json?.usageMetadata?.totalTokenCount;
      verdicts.cacheTokens = {
        applies: true,
        problems: actual === expected ? [] : [`cache tokens ${actual}; the service ${expected}`],
      };
    }
    const model = requestedModel(exchange);
    const refusedSince =
      exchange.status < 300 &&
      ours.status === 404 &&
      model !== null &&
      (isRefused(model, knowledge.refusedModels) || isLineRefused(model, knowledge.refusedModels));
    const answeredAs = sameStatus ? modelVersionsOf(ours) : [];
    const recordedAs = modelVersionsOf(recorded);
    const aliasMoved =
      model !== null &&
      answeredAs.length === 1 &&
      recordedAs.length > 0 &&
      !recordedAs.includes(answeredAs[0]) &&
      ((knowledge.answeredVersions.get(model)?.has(answeredAs[0]) ?? false) ||
        recordedAs.every((version) => isRefused(version, knowledge.refusedModels)));
    return {
      exchange,
      recorded,
      ms,
      verdicts,
      outsideResources: outside,
      refusedSince,
      aliasMoved,
      servedByAnotherModel: servedByThinkingModel.has(groupModelKey(exchange)),
    };
  });
}

/**
 * Applies the allow-list: each entry `{category, reason, ids | rule, fields?, targets?}` explains
 * the failures in that category of the exchanges it names (`ids`) or that its rule holds for
 * (`rule`, allow-rules.mjs); with `fields`, only those problems. Answers per exchange and
 * category what is left unexplained, and entries that explain nothing: an id entry is stale for
 * each of this run's exchanges it names and does not explain; a rule entry is reported in
 * `usedRules` (`category:rule`) so a caller that runs several sets can tell one that explains
 * nothing anywhere.
 */
export function applyAllowList(judged, allowList, target) {
  const entries = (allowList.entries ?? []).filter((entry) =>
    (entry.targets ?? ["local"]).includes(target),
  );
  const used = new Set();
  const usedRules = new Set();
  for (const item of judged) {
    for (const [category, verdict] of Object.entries(item.verdicts)) {
      verdict.explained = [];
      verdict.open = verdict.problems;
      for (const [index, entry] of entries.entries()) {
        if (entry.category !== category || !verdict.open.length) continue;
        const named = entry.ids?.includes(item.exchange.id);
        const ruled =
          entry.rule !== undefined &&
          ALLOW_RULES[entry.rule]?.({
            item,
            exchange: item.exchange,
            recorded: item.recorded,
            verdict,
          });
        if (!named && !ruled) continue;
        const explains = (problem) => !entry.fields || entry.fields.includes(problem);
        const explained = verdict.open.filter(explains);
        if (explained.length) {
          if (named) used.add(`${index}:${item.exchange.id}`);
          else usedRules.add(`${entry.category}:${entry.rule}`);
        }
        verdict.explained.push(...explained.map((problem) => ({ problem, reason: entry.reason })));
        verdict.open = verdict.open.filter((problem) => !explains(problem));
      }
    }
  }
  // Only this run's exchanges can be stale here: the list is shared by every set.
  const replayed = new Set(judged.map((item) => item.exchange.id));
  const stale = [];
  for (const [index, entry] of entries.entries())
    for (const id of entry.ids ?? [])
      if (replayed.has(id) && !used.has(`${index}:${id}`))
        stale.push({ category: entry.category, id, reason: entry.reason });
  return { judged, stale, usedRules };
}

/**
 * Per category: exchanges it applies to, passed, explained by the allow-list, open; only of
 * the compared operations (compared-operations.mjs).
 */
export function figures(judged) {
  const result = {};
  const compared = judged.filter((item) => isCompared(item.exchange));
  for (const [category] of CATEGORIES) {
    const applicable = compared.filter((item) => item.verdicts[category]?.applies);
    const passed = applicable.filter((item) => item.verdicts[category].problems.length === 0);
    const open = applicable.filter(
      (item) => (item.verdicts[category].open ?? item.verdicts[category].problems).length > 0,
    );
    result[category] = {
      applicable: applicable.length,
      passed: passed.length,
      explained: applicable.length - passed.length - open.length,
      open: open.length,
    };
  }
  return result;
}

/**
 * The operations replayed but not compared yet, each with how many exchanges it has and how
 * many got the service's status: reported, outside the budget.
 */
export function uncomparedFigures(judged) {
  const result = new Map();
  for (const item of judged) {
    if (isCompared(item.exchange)) continue;
    const figure = result.get(item.exchange.operation) ?? { exchanges: 0, sameStatus: 0 };
    figure.exchanges += 1;
    if (item.verdicts.status.problems.length === 0) figure.sameStatus += 1;
    result.set(item.exchange.operation, figure);
  }
  return [...result.entries()].sort(([left], [right]) => left.localeCompare(right));
}

/** The most frequent open problems of a category (fields missing or extra, formats, ...). */
export function commonProblems(judged, category, limit = 12) {
  const counts = new Map();
  for (const item of judged) {
    if (!isCompared(item.exchange)) continue;
    const verdict = item.verdicts[category];
    for (const problem of new Set((verdict?.open ?? verdict?.problems ?? []).map(generalise)))
      counts.set(problem, (counts.get(problem) ?? 0) + 1);
  }
  return [...counts.entries()].sort((left, right) => right[1] - left[1]).slice(0, limit);
}

/** Problems without their per-request values, so alike ones count together. */
function generalise(problem) {
  return problem
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\b\d+\b/g, "N")
    .slice(0, 160);
}

/** The figures as printed lines, then the operations not compared yet. */
export function formatFigures(title, table, elapsedMs, uncompared = []) {
  const lines = [`${title} (${(elapsedMs / 1000).toFixed(1)} s)`];
  for (const [category, label] of CATEGORIES) {
    const figure = table[category];
    if (!figure || figure.applicable === 0) continue;
    const percent = ((100 * figure.passed) / figure.applicable).toFixed(1);
    const rest = [
      figure.explained ? `${figure.explained} allow-listed` : "",
      figure.open ? `${figure.open} open` : "",
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(
      `  ${label.padEnd(44)} ${String(figure.passed).padStart(4)} / ${String(figure.applicable).padEnd(4)} ${percent.padStart(5)}%${rest ? `  (${rest})` : ""}`,
    );
  }
  if (uncompared.length) {
    lines.push("  not compared yet (outside the budget), same status:");
    for (const [operation, figure] of uncompared)
      lines.push(
        `    ${operation.padEnd(42)} ${String(figure.sameStatus).padStart(4)} / ${figure.exchanges}`,
      );
  }
  return lines.join("\n");
}

/**
 * What the replay learns from every recorded answer at once: the service's formats, and the
 * thinking behind each thought signature it made. Parsed once per list of exchanges.
 */
const knowledgeCache = new WeakMap();

/** The model ids some recording shows the service refusing as unknown (its 404 NOT_FOUND). */
function refusedModels(exchanges) {
  const refused = new Set();
  for (const exchange of exchanges) {
    if (exchange.status !== 404) continue;
    const model = requestedModel(exchange);
    if (model && /is not found for API version/.test(exchange.responseBody)) refused.add(model);
  }
  return refused;
}

/**
 * Whether the service refuses a model now: a recording shows its 404, or the 404 of the model
 * it is a variant of (gemini-2.5-flash-preview-04-17-thinking of gemini-2.5-flash-preview-04-17).
 */
function isRefused(model, refusedModels) {
  const name = model.replace(/^models\//, "");
  if (refusedModels.has(name)) return true;
  for (const refused of refusedModels) if (name.startsWith(`${refused}-`)) return true;
  return false;
}

/**
 * Whether a recording shows the service refusing a model of the same numbered line
 * (gemini-1.5-flash for gemini-1.5-pro). Asked only where the engine refuses the model too:
 * the catalog retires a whole line only when the line's newest recording is such a 404 and no
 * later models.list names the line (`retired` in lib/engine/catalog/models.json).
 */
function isLineRefused(model, refusedModels) {
  const line = /^gemini-\d+(?:\.\d+)?-/.exec(model.replace(/^models\//, ""))?.[0];
  if (!line) return false;
  for (const refused of refusedModels) if (refused.startsWith(line)) return true;
  return false;
}

/** The thinking tokens a parsed answer reports (the last event of a stream that reports usage). */
function thoughtsOf(answer) {
  const values = answer.events ?? (answer.json ? [answer.json] : []);
  let thoughts;
  for (const value of values) {
    const usage = value?.usageMetadata;
    if (usage) thoughts = usage.thoughtsTokenCount ?? 0;
  }
  return thoughts;
}

function groupModelKey(exchange) {
  return `${exchange.group}\n${requestedModel(exchange)}`;
}

/**
 * The recordings (and models in them) where the service answered a model that does not think
 * with thinking: a recorded answer reports thoughtsTokenCount for a model the engine answers
 * without thinking on every request of the set (the catalog's models that do not think). The
 * service served another model under that name when it was recorded, whose prompt rules no
 * answer names.
 */
function thinkingWhereTheModelDoesNot(results) {
  const engineThinks = new Set();
  for (const { exchange, ours } of results)
    if (thoughtsOf(ours) > 0) engineThinks.add(requestedModel(exchange));
  const keys = new Set();
  for (const { exchange, recorded, ours } of results) {
    if (exchange.status >= 300 || ours.status !== exchange.status) continue;
    const model = requestedModel(exchange);
    if (model === null || engineThinks.has(model)) continue;
    if (thoughtsOf(recorded) > 0) keys.add(groupModelKey(exchange));
  }
  return keys;
}

/**
 * Every modelVersion the service answered each requested model with, over all recordings: an
 * alias (gemini-flash-latest) answers as the model it points at when recorded.
 */
function answeredVersions(parsed) {
  const versions = new Map();
  for (const [exchange, answer] of parsed) {
    const model = requestedModel(exchange);
    if (model === null) continue;
    const set = versions.get(model) ?? new Set();
    for (const version of modelVersionsOf(answer)) set.add(version);
    versions.set(model, set);
  }
  return versions;
}

/** The modelVersion values of a parsed answer (every event of a stream). */
function modelVersionsOf(answer) {
  const values = answer.events ?? (answer.json ? [answer.json] : []);
  return [
    ...new Set(values.map((value) => value?.modelVersion).filter((v) => typeof v === "string")),
  ];
}

function learnKnowledge(exchanges) {
  let knowledge = knowledgeCache.get(exchanges);
  if (!knowledge) {
    const parsed = exchanges
      .filter((exchange) => exchange.status < 300 && isGeneration(exchange.operation))
      .map((exchange) => [
        exchange,
        parseAnswer({
          operation: exchange.operation,
          status: exchange.status,
          headers: exchange.responseHeaders,
          body: exchange.responseBody,
          eventStream: isEventStream(exchange),
        }),
      ]);
    knowledge = {
      formats: learnFormats(exchanges),
      answeredVersions: answeredVersions(parsed),
      signatures: learnSignatures(parsed),
      refusedModels: refusedModels(exchanges),
    };
    knowledgeCache.set(exchanges, knowledge);
  }
  return knowledge;
}

/**
 * Asks the local engine's emulator to sample `key`'s requests repeatably: the recorded requests
 * that set no seed draw the same answer on every run, so a run's figures do not depend on the
 * draw (which words an answer uses decides, for one, whether it copies a cached passage and is
 * cited).
 */
async function sampleRepeatably(baseUrl, key) {
  const response = await fetch(`${baseUrl}/emulator/controls`, {
    method: "PUT",
    headers: { "x-goog-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ repeatableSampling: true }),
  });
  if (!response.ok)
    throw new Error(`emulator controls: ${response.status} ${await response.text()}`);
}

/**
 * Runs, judges and applies the allow-list in one call. The service's formats are learned from
 * `formatSource` (every set's answers; this run's exchanges unless given).
 */
export async function conformance({
  baseUrl,
  key,
  exchanges,
  allowList,
  target,
  onGroup,
  formatSource = exchanges,
}) {
  const started = performance.now();
  if (target === "local") await sampleRepeatably(baseUrl, key);
  const results = await replayExchanges({ baseUrl, key, exchanges, onGroup });
  const judged = judge(results, learnKnowledge(formatSource));
  const { stale, usedRules } = applyAllowList(judged, allowList, target);
  return {
    judged,
    stale,
    usedRules,
    table: figures(judged),
    uncompared: uncomparedFigures(judged),
    elapsedMs: performance.now() - started,
  };
}
