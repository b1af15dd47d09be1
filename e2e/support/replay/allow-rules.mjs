/**
 * The replay allow-list's rules: entries that name a kind of difference (`rule`) instead of
 * exchanges (`ids`). Each rule tells from a recorded exchange alone, and from what the replay
 * learned while replaying its recording, that a difference comes from something only the
 * service can know (a file made outside the recording, a medium at an outside URL, a tool the
 * service ran, a signature only it can decrypt, a quota of the recording's project). Rules hold
 * on recordings of any project, so they explain the same differences on sets nobody read.
 */

const SERVICE_FILE_URI = /^https:\/\/generativelanguage\.googleapis\.com\//;

/** Every string value of a JSON value under one of `keys` (either spelling), depth first. */
function valuesUnder(value, keys, out = []) {
  if (Array.isArray(value)) {
    for (const item of value) valuesUnder(item, keys, out);
  } else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      if (keys.includes(key) && typeof child === "string") out.push(child);
      else valuesUnder(child, keys, out);
    }
  }
  return out;
}

/** Whether the request names a medium by an outside URL (a web page, YouTube, a CDN). */
export function hasOutsideUrl(exchange) {
  return valuesUnder(exchange.requestBody, ["fileUri", "file_uri", "uri"]).some(
    (uri) => /^https?:\/\//i.test(uri) && !SERVICE_FILE_URI.test(uri),
  );
}

/** Built-in tools that run at the service, within the request. */
const SERVER_TOOLS = [
  "googleSearch",
  "google_search",
  "googleSearchRetrieval",
  "google_search_retrieval",
  "urlContext",
  "url_context",
  "fileSearch",
  "file_search",
  "codeExecution",
  "code_execution",
  "googleMaps",
  "google_maps",
];

function declaresServerTool(exchange) {
  const tools = exchange.requestBody?.tools;
  const list = Array.isArray(tools) ? tools : tools ? [tools] : [];
  return list.some((tool) => tool && SERVER_TOOLS.some((name) => name in tool));
}

/** Whether the recorded answer shows a built-in tool ran (its results, metadata or usage). */
function serverToolRan(recorded) {
  const answers = recorded.events ?? (recorded.json ? [recorded.json] : []);
  return answers.some((answer) => {
    const usage = answer?.usageMetadata ?? {};
    const details = (usage.promptTokensDetails ?? []).reduce(
      (sum, detail) => sum + (detail.tokenCount ?? 0),
      0,
    );
    if (usage.toolUsePromptTokenCount || (details && usage.promptTokenCount > details)) return true;
    return (answer?.candidates ?? []).some(
      (candidate) =>
        candidate?.groundingMetadata ||
        candidate?.urlContextMetadata ||
        (candidate?.content?.parts ?? []).some(
          (part) => part.executableCode || part.codeExecutionResult || part.toolCall,
        ),
    );
  });
}

/** The models whose engine notation (2.5's `python`) counts a token for each call argument. */
const ARGUMENT_TOKEN_MODEL = /\/models\/gemini-2\.5-/;

/** Each rule: whether it explains the problems of one category of one judged exchange. */
export const ALLOW_RULES = {
  /**
   * Thought signatures the service made, sent back in the current turn: the service counts
   * what only it can decrypt (3.x: the thinking they stand for). The rule holds where the
   * difference is exactly the thinking the service reported for them in its recorded answers
   * (less one token a signature, or on 2.5, where the engine counts a token for each argument of
   * a call, less those of the calls the signatures sit on), or where an answer that made one is
   * not recorded.
   */
  "service-signature-thinking": ({ verdict, exchange }) => {
    const signatures = verdict.signatures;
    if (!signatures?.count) return false;
    if (signatures.unknown) return true;
    const missing = verdict.expected - (verdict.actual ?? Number.NaN);
    const engineCallTokens = ARGUMENT_TOKEN_MODEL.test(exchange.path)
      ? signatures.callArguments
      : signatures.count;
    return missing === signatures.thinking || missing === signatures.thinking - engineCallTokens;
  },
  /** A medium at an outside URL: the service fetched it and counted what it found. */
  "outside-url": ({ exchange }) => hasOutsideUrl(exchange),
  /** A file, cache or store made outside the recording: only the service holds it. */
  "outside-resource": ({ item }) => (item.outsideResources?.length ?? 0) > 0,
  /** A built-in tool the service ran within the request, its results counted in the prompt. */
  "server-side-tool": ({ exchange, recorded }) =>
    declaresServerTool(exchange) && serverToolRan(recorded),
  /**
   * A model the service answered when this was recorded and refuses now: another recording of
   * the same model, of the model it is a variant of, or of a model of its numbered line (the
   * service retires a line's models together) is the service's 404 (not found), which the
   * engine answers.
   */
  "retired-model": ({ item }) => item.refusedSince === true,
  /**
   * An alias (gemini-flash-latest) the service pointed at another model when this was recorded:
   * another recording shows the service answering the same alias as the model the engine
   * answers with now, or the model it answered as has been retired since (a recording shows
   * its 404). Only the resolved model differs.
   */
  "alias-moved": ({ item, verdict }) =>
    item.aliasMoved === true &&
    verdict.open.every((problem) => problem.startsWith("modelVersion ")),
  /**
   * A model that does not think, answered with thinking in this recording: the service served
   * another model under its name when this was recorded (an answer of the same recording and
   * model reports thoughtsTokenCount where the engine, as that model, thinks not at all), and
   * counted the prompt by that model's rules, which no answer names.
   */
  "served-by-another-model": ({ item }) => item.servedByAnotherModel === true,
  /**
   * The service's earlier wording of its 404 for a model it does not serve ("Call ListModels
   * ..."): the newest recordings say "Call ModelService.ListModels ...", as the engine does.
   * Only that wording differs.
   */
  "earlier-404-wording": ({ verdict }) =>
    typeof verdict.actual === "string" &&
    typeof verdict.expected === "string" &&
    verdict.actual.replace("Call ModelService.ListModels", "Call ListModels") === verdict.expected,
  /** The recording project's quota, spent at the service when it was recorded. */
  quota: ({ exchange }) => exchange.status === 429,
};
