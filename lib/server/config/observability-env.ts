import "server-only";
import { z } from "zod";
import { ConfigurationError } from "./env";

/**
 * The settings of metrics and traces, read once from the environment:
 * `STUDIO_METRICS_TOKEN` (a bearer token Prometheus sends for `GET /metrics`; unset, only
 * loopback clients may scrape) and OpenTelemetry's own variables (`OTEL_EXPORTER_OTLP_ENDPOINT`
 * or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: traces are exported there over OTLP/HTTP;
 * `OTEL_SERVICE_NAME`, default `genstudio`; `OTEL_EXPORTER_OTLP_HEADERS`, read by the exporter).
 */

const schema = z.object({
  STUDIO_METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, "STUDIO_METRICS_TOKEN: at least 16 characters")
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url("OTEL_EXPORTER_OTLP_ENDPOINT: not a URL").optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: not a URL")
    .optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(200).optional(),
  OTEL_SDK_DISABLED: z.string().optional(),
});

export interface ObservabilityEnv {
  metricsToken: string | null;
  /** Where spans go (the traces URL itself), or null: no traces are made. */
  tracesEndpoint: string | null;
  serviceName: string;
}

const holder = globalThis as typeof globalThis & { genstudioObservabilityEnv?: ObservabilityEnv };

function read(source: NodeJS.ProcessEnv): ObservabilityEnv {
  const blankless = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const parsed = schema.safeParse(blankless);
  if (!parsed.success)
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  const values = parsed.data;
  const base = values.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const tracesEndpoint =
    values.OTEL_SDK_DISABLED === "true"
      ? null
      : (values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : null));
  return {
    metricsToken: values.STUDIO_METRICS_TOKEN ?? null,
    tracesEndpoint,
    serviceName: values.OTEL_SERVICE_NAME ?? "genstudio",
  };
}

export function observabilityEnv(): ObservabilityEnv {
  holder.genstudioObservabilityEnv ??= read(process.env);
  return holder.genstudioObservabilityEnv;
}

/** For tests: the settings a given environment gives. */
export const readObservabilityEnv = read;
