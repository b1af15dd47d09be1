/**
 * Operations, checked by the real consumers: a Prometheus server (Debian's `prometheus`,
 * started here) scrapes `GET /metrics` with the scrape token and its HTTP API answers a query
 * for the studio's request counter; spans are exported over OTLP/HTTP to a receiver started
 * here, decoded and read for the GenAI attributes. `/metrics` refuses a request without the
 * token. Own server: the shared ones have no token and no trace endpoint.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, startOwnServer, type OwnServer } from "./support/fuzz/own-server.mjs";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEY = "observability-key-0123456789";
const TOKEN = "metrics-scrape-token-0123456789";
const MODEL = "gemini-2.5-flash";

interface OtlpAttribute {
  key: string;
  value: {
    stringValue?: string;
    intValue?: string | number;
    boolValue?: boolean;
    doubleValue?: number;
    arrayValue?: { values: Array<{ stringValue?: string }> };
  };
}
interface OtlpSpan {
  name: string;
  traceId: string;
  parentSpanId?: string;
  kind: number;
  attributes: OtlpAttribute[];
}

let server: OwnServer;
let receiver: http.Server;
const exported: OtlpSpan[] = [];
const exportedTypes: string[] = [];
let prometheus: ChildProcess | null = null;
let workDir: string;

test.beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "genstudio-observability-"));
  const receiverPort = await freePort();
  receiver = http.createServer((request, response) => {
    const pieces: Buffer[] = [];
    request.on("data", (piece: Buffer) => pieces.push(piece));
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        exportedTypes.push(request.headers["content-type"] ?? "");
        const body = JSON.parse(Buffer.concat(pieces).toString("utf8")) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) exported.push(...scope.spans);
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
  server = await startOwnServer({
    dataDir: path.join(workDir, "data"),
    env: {
      STUDIO_API_KEYS: `observer:${KEY}`,
      STUDIO_METRICS_TOKEN: TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
      OTEL_SERVICE_NAME: "genstudio-e2e",
      STUDIO_RATE_LIMIT_PER_MINUTE: "0",
    },
  });
});

test.afterAll(async () => {
  prometheus?.kill("SIGTERM");
  if (server?.alive()) await server.stop("SIGTERM");
  await new Promise((resolve) => receiver?.close(resolve));
  fs.rmSync(workDir, { recursive: true, force: true });
});

function generate(stream: boolean, headers: Record<string, string> = {}) {
  return fetch(
    `${server.baseUrl}/v1beta/models/${MODEL}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    {
      method: "POST",
      headers: { "x-goog-api-key": KEY, "content-type": "application/json", ...headers },
      body: JSON.stringify({ contents: [{ parts: [{ text: "Name three rivers." }] }] }),
    },
  );
}

test("GET /metrics needs the scrape token and counts requests, tokens and streams", async () => {
  expect((await generate(false)).status).toBe(200);
  const streamed = await generate(true);
  expect(streamed.status).toBe(200);
  await streamed.text();
  const refused = await fetch(`${server.baseUrl}/metrics`);
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toContain("Bearer");
  expect(((await refused.json()) as { error: { status: string } }).error.status).toBe(
    "UNAUTHENTICATED",
  );
  const wrong = await fetch(`${server.baseUrl}/metrics`, {
    headers: { authorization: "Bearer not-the-token-0123456789" },
  });
  expect(wrong.status).toBe(401);
  const metrics = await fetch(`${server.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(metrics.status).toBe(200);
  expect(metrics.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  const text = await metrics.text();
  expect(text).toContain(
    `genstudio_requests_total{operation="generateContent",model="${MODEL}",status="200"} 1`,
  );
  expect(text).toContain(
    `genstudio_request_duration_seconds_count{operation="streamGenerateContent",model="${MODEL}",status="200"} 1`,
  );
  expect(text).toMatch(
    new RegExp(`genstudio_tokens_total\\{model="${MODEL}",type="output"\\} [1-9]`),
  );
  expect(text).toContain('genstudio_open_streams{operation="streamGenerateContent"} 0');
  expect(text).not.toContain(KEY);
});

test("a Prometheus server scrapes the studio and answers a query for its series", async () => {
  const port = await freePort();
  const config = path.join(workDir, "prometheus.yml");
  fs.writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "scrape_configs:",
      "  - job_name: genstudio",
      "    metrics_path: /metrics",
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${TOKEN}`,
      "    static_configs:",
      `      - targets: ["127.0.0.1:${server.port}"]`,
      "",
    ].join("\n"),
  );
  let log = "";
  prometheus = spawn(
    "prometheus",
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(workDir, "tsdb")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  prometheus.stderr!.on("data", (piece: Buffer) => (log = (log + piece.toString()).slice(-20_000)));
  const query = encodeURIComponent(
    `genstudio_requests_total{job="genstudio",operation="generateContent",model="${MODEL}"}`,
  );
  let result: Array<{ metric: Record<string, string>; value: [number, string] }> = [];
  await expect
    .poll(
      async () => {
        try {
          const answer = (await (
            await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`)
          ).json()) as { data: { result: typeof result } };
          result = answer.data.result;
        } catch {
          result = [];
        }
        return result.length;
      },
      { timeout: 60_000, message: `prometheus never had the series; its log:\n${log}` },
    )
    .toBe(1);
  expect(result[0]!.metric).toMatchObject({ status: "200", instance: `127.0.0.1:${server.port}` });
  expect(Number(result[0]!.value[1])).toBeGreaterThanOrEqual(1);
  const targets = (await (await fetch(`http://127.0.0.1:${port}/api/v1/targets`)).json()) as {
    data: { activeTargets: Array<{ health: string }> };
  };
  expect(targets.data.activeTargets[0]!.health).toBe("up");
});

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((item) => item.key === key)?.value;
  if (!value) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.arrayValue) return value.arrayValue.values.map((item) => item.stringValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

test("each request's span reaches an OTLP/HTTP receiver with the GenAI attributes", async () => {
  const parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const answer = await generate(false, {
    traceparent: `00-${parentTrace}-00f067aa0ba902b7-01`,
  });
  const usage = ((await answer.json()) as { usageMetadata: Record<string, number> }).usageMetadata;
  await expect
    .poll(() => exported.filter((span) => span.traceId === parentTrace).length, {
      timeout: 20_000,
    })
    .toBe(1);
  expect(exportedTypes[0]).toContain("application/json");
  const span = exported.find((item) => item.traceId === parentTrace)!;
  expect(span.name).toBe(`generate_content ${MODEL}`);
  expect(span.parentSpanId).toBe("00f067aa0ba902b7");
  expect(span.kind).toBe(2);
  expect(attribute(span, "gen_ai.operation.name")).toBe("generate_content");
  expect(attribute(span, "gen_ai.provider.name")).toBe("gcp.gemini");
  expect(attribute(span, "gen_ai.request.model")).toBe(MODEL);
  expect(attribute(span, "gen_ai.request.stream")).toBe(false);
  expect(attribute(span, "gen_ai.usage.input_tokens")).toBe(usage.promptTokenCount);
  expect(attribute(span, "gen_ai.usage.output_tokens")).toBe(
    (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  );
  expect(attribute(span, "gen_ai.response.finish_reasons")).toEqual(["STOP"]);
  expect(attribute(span, "http.response.status_code")).toBe(200);
  // The streamed requests of the first test have spans of their own, in traces of their own.
  const streamed = exported.find(
    (item) => attribute(item, "genstudio.operation") === "streamGenerateContent",
  );
  expect(streamed && attribute(streamed, "gen_ai.request.stream")).toBe(true);
  expect(streamed && attribute(streamed, "gen_ai.usage.output_tokens")).toBeGreaterThan(0);
});
