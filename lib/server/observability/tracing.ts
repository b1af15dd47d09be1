import "server-only";
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  type Attributes,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from "@opentelemetry/semantic-conventions";
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
  GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI,
} from "@opentelemetry/semantic-conventions/incubating";
import { observabilityEnv } from "../config/observability-env";
import { logger } from "../config/logger";

/**
 * A span for each API request, with the GenAI semantic conventions (from
 * `@opentelemetry/semantic-conventions`): `gen_ai.operation.name`, `gen_ai.provider.name`,
 * `gen_ai.request.model`, and once the answer is known `gen_ai.usage.input_tokens`,
 * `gen_ai.usage.output_tokens` (cached and reasoning tokens apart), `gen_ai.response.*`; and the
 * HTTP server's method, path and status. Exported over OTLP/HTTP (JSON) in batches when an
 * endpoint is configured; without one no tracer exists and nothing is made. A `traceparent`
 * header from the client makes the span a child of the client's. This studio's own provider,
 * not a global one: Next's internal spans are not exported with ours.
 */

const PROVIDER = GEN_AI_PROVIDER_NAME_VALUE_GCP_GEMINI;
/** `gen_ai.system`: the older attribute some backends still read; the same value. */
const ATTR_GEN_AI_SYSTEM = "gen_ai.system";

interface TracingState {
  tracer: Tracer | null;
  provider: BasicTracerProvider | null;
}

const holder = globalThis as typeof globalThis & { genstudioTracing?: TracingState };
const propagator = new W3CTraceContextPropagator();

function state(): TracingState {
  if (holder.genstudioTracing) return holder.genstudioTracing;
  const { tracesEndpoint, serviceName } = observabilityEnv();
  if (tracesEndpoint === null) {
    holder.genstudioTracing = { tracer: null, provider: null };
    return holder.genstudioTracing;
  }
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesEndpoint }), {
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  // Spans still waiting are sent when the process is asked to stop.
  process.once("SIGTERM", () => {
    provider.shutdown().catch((error: unknown) => logger.warn("exporting spans failed", error));
  });
  holder.genstudioTracing = { tracer: provider.getTracer("genstudio"), provider };
  logger.info(`traces: exported over OTLP/HTTP to ${new URL(tracesEndpoint).origin}`);
  return holder.genstudioTracing;
}

/** The GenAI operation an API operation is, or null for those that are none (lists, files). */
export function genAiOperation(operation: string): string | null {
  if (/^(?:stream)?generateContent$|^interactions\.create$|^batchGenerateContent$/i.test(operation))
    return GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT;
  if (/embed/i.test(operation)) return GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS;
  if (operation === "openai.chat.completions") return GEN_AI_OPERATION_NAME_VALUE_CHAT;
  return null;
}

export interface RequestSpanStart {
  request: Request;
  operation: string;
  path: string;
  model?: string;
  streamed: boolean;
  startTime: number;
}

/** A span for a request whose route matched; null when tracing is off. */
export function startRequestSpan(start: RequestSpanStart): Span | null {
  const { tracer } = state();
  if (tracer === null) return null;
  const genAi = genAiOperation(start.operation);
  const model = start.model?.replace(/^models\//, "");
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: start.request.method,
    [ATTR_URL_PATH]: start.path,
    "genstudio.operation": start.operation,
  };
  if (genAi !== null) {
    attributes[ATTR_GEN_AI_OPERATION_NAME] = genAi;
    attributes[ATTR_GEN_AI_PROVIDER_NAME] = PROVIDER;
    attributes[ATTR_GEN_AI_SYSTEM] = PROVIDER;
    attributes[ATTR_GEN_AI_REQUEST_STREAM] = start.streamed;
  }
  if (model) attributes[ATTR_GEN_AI_REQUEST_MODEL] = model;
  const carrier: Record<string, string> = {};
  const parent = start.request.headers.get("traceparent");
  if (parent !== null) {
    carrier.traceparent = parent;
    const traceState = start.request.headers.get("tracestate");
    if (traceState !== null) carrier.tracestate = traceState;
  }
  const context =
    parent === null
      ? ROOT_CONTEXT
      : propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
  return tracer.startSpan(
    genAi !== null && model ? `${genAi} ${model}` : `${start.request.method} ${start.operation}`,
    { kind: SpanKind.SERVER, attributes, startTime: start.startTime },
    context,
  );
}

export interface SpanUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  thoughtTokens: number;
  responseModel?: string;
  responseId?: string;
  finishReasons?: string[];
}

export function setSpanUsage(span: Span, usage: SpanUsage): void {
  span.setAttributes({
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: usage.inputTokens,
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: usage.outputTokens,
    [ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS]: usage.cachedTokens,
    [ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS]: usage.thoughtTokens,
    ...(usage.responseModel ? { [ATTR_GEN_AI_RESPONSE_MODEL]: usage.responseModel } : {}),
    ...(usage.responseId ? { [ATTR_GEN_AI_RESPONSE_ID]: usage.responseId } : {}),
    ...(usage.finishReasons?.length
      ? { [ATTR_GEN_AI_RESPONSE_FINISH_REASONS]: usage.finishReasons }
      : {}),
  });
}

/** Ends a request's span with its status (5xx marks it an error, as HTTP servers do). */
export function endRequestSpan(span: Span, status: number, endTime: number): void {
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status >= 500) {
    span.setAttribute(ATTR_ERROR_TYPE, String(status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(endTime);
}

/** Sends every finished span now (tests, shutdown). */
export async function flushSpans(): Promise<void> {
  await state().provider?.forceFlush();
}
