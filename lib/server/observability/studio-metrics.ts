import { Counter, Gauge, Histogram, MetricsRegistry } from "./metrics-registry";

/**
 * The studio's metrics, one set per process (every instance is scraped on its own), served at
 * `GET /metrics`. Request labels: the operation (operation-names.ts), the model and the HTTP
 * status. A model name comes from the request's path, which anyone can write: it is a label
 * only once it answered (or is answering) a request with 2xx on this instance, at most
 * MAX_MODELS of them; any other reads "other".
 */

const MAX_MODELS = 200;

interface StudioMetrics {
  registry: MetricsRegistry;
  requests: Counter;
  duration: Histogram;
  timeToFirstByte: Histogram;
  tokens: Counter;
  cost: Counter;
  openStreams: Gauge;
  upstreamRetries: Counter;
  refusals: Counter;
  knownModels: Set<string>;
  startTime: Gauge;
}

const LATENCY_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

function create(): StudioMetrics {
  const registry = new MetricsRegistry();
  const startTime = registry.register(
    new Gauge("process_start_time_seconds", "Start time of the process since the Unix epoch."),
  );
  startTime.set([], Math.round(Date.now() / 1000));
  return {
    registry,
    startTime,
    requests: registry.register(
      new Counter(
        "genstudio_requests_total",
        "API requests answered, by operation, model and status.",
        ["operation", "model", "status"],
      ),
    ),
    duration: registry.register(
      new Histogram(
        "genstudio_request_duration_seconds",
        "Time from a request's arrival to the end of its answer (a stream's last byte), by operation, model and status.",
        ["operation", "model", "status"],
        LATENCY_BOUNDS,
      ),
    ),
    timeToFirstByte: registry.register(
      new Histogram(
        "genstudio_stream_first_byte_seconds",
        "Time from a streamed request's arrival to its answer's first byte, by operation and model.",
        ["operation", "model"],
        LATENCY_BOUNDS,
      ),
    ),
    tokens: registry.register(
      new Counter(
        "genstudio_tokens_total",
        "Tokens of answers given, by model and type (prompt, cached, output, thought).",
        ["model", "type"],
      ),
    ),
    cost: registry.register(
      new Counter(
        "genstudio_cost_dollars_total",
        "Cost of answers given by the price table, in US dollars, by model.",
        ["model"],
      ),
    ),
    openStreams: registry.register(
      new Gauge("genstudio_open_streams", "Streamed answers being written now, by operation.", [
        "operation",
      ]),
    ),
    upstreamRetries: registry.register(
      new Counter(
        "genstudio_upstream_retries_total",
        "Requests the gateway sent the upstream again, by cause (an HTTP status, not_sent, connection_lost).",
        ["cause"],
      ),
    ),
    refusals: registry.register(
      new Counter(
        "genstudio_limit_refusals_total",
        "Requests refused by a key's limits or the studio's: budgets (their quota id), the rate, a model not allowed.",
        ["limit"],
      ),
    ),
    knownModels: new Set(),
  };
}

const holder = globalThis as typeof globalThis & { genstudioMetrics?: StudioMetrics };

export function studioMetrics(): StudioMetrics {
  holder.genstudioMetrics ??= create();
  return holder.genstudioMetrics;
}

/** The model as a label: `gemini-2.5-flash` (no `models/`), or "other" (see above). */
export function modelLabel(model: string | undefined, answered: boolean): string {
  if (!model) return "";
  const name = model.replace(/^models\//, "");
  const known = studioMetrics().knownModels;
  if (known.has(name)) return name;
  if (answered && known.size < MAX_MODELS && name.length <= 100) {
    known.add(name);
    return name;
  }
  return "other";
}

/** One answered request: its count and its time (seconds). */
export function countRequest(
  operation: string,
  model: string | undefined,
  status: number,
  seconds: number,
): void {
  const metrics = studioMetrics();
  const labels = [operation, modelLabel(model, status < 400), String(status)];
  metrics.requests.inc(labels);
  metrics.duration.observe(labels, seconds);
}

export function observeFirstByte(operation: string, model: string | undefined, seconds: number) {
  studioMetrics().timeToFirstByte.observe([operation, modelLabel(model, true)], seconds);
}

export function streamOpened(operation: string): void {
  studioMetrics().openStreams.add([operation], 1);
}

export function streamClosed(operation: string): void {
  studioMetrics().openStreams.add([operation], -1);
}

/** An answer's tokens and cost (dollars; null when the model has no price). */
export function countAnswerTokens(
  model: string,
  tokens: { prompt: number; cached: number; output: number; thought: number },
  dollars: number | null,
): void {
  const metrics = studioMetrics();
  const label = modelLabel(model, true);
  metrics.tokens.inc([label, "prompt"], tokens.prompt);
  metrics.tokens.inc([label, "cached"], tokens.cached);
  metrics.tokens.inc([label, "output"], tokens.output);
  metrics.tokens.inc([label, "thought"], tokens.thought);
  if (dollars !== null) metrics.cost.inc([label], dollars);
}

export function countUpstreamRetry(cause: string): void {
  studioMetrics().upstreamRetries.inc([cause]);
}

/** A request refused by a limit: a budget's quota id, "rate", "model" or "streams". */
export function countRefusal(limit: string): void {
  studioMetrics().refusals.inc([limit]);
}
