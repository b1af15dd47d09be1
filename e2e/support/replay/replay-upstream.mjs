/**
 * A stand-in for the service that answers with its recorded answers, for the gateway's
 * replay: the runner names the recording being replayed, and each request is matched to the
 * first not yet answered exchange of that recording with the same operation and resource
 * path, in recorded order. Answers keep the recorded status, content type, upload headers
 * and body bytes (streams written event by event; a stream recorded as one JSON array is sent
 * as server-sent events to a caller that asks for them, as the service would); only the service's own origin in upload
 * URLs becomes this server's, so the gateway can follow them. What the gateway sent is kept
 * for the runner (a request nothing matched is a harness failure, not a gateway one).
 */
import http from "node:http";

const SERVICE_ORIGIN = "https://generativelanguage.googleapis.com";

/** The recorded operation a request stands for (as the recordings' extractor names them). */
export function operationOf(method, pathname, query) {
  if (pathname === "/upload/v1beta/files")
    return query.has("upload_id") ? "files.upload.chunk" : "files.upload.start";
  if (/^\/upload\/v1beta\/fileSearchStores\/[^/:]+:uploadToFileSearchStore$/.test(pathname))
    return query.has("upload_id")
      ? "fileSearchStores.upload.chunk"
      : "fileSearchStores.upload.start";
  const rules = [
    ["GET", /^\/v1beta\/models$/, "models.list"],
    ["GET", /^\/v1beta\/models\/[^/:]+$/, "models.get"],
    ["POST", /^\/v1beta\/models\/[^/:]+:generateContent$/, "generateContent"],
    ["POST", /^\/v1beta\/models\/[^/:]+:streamGenerateContent$/, "streamGenerateContent"],
    ["POST", /^\/v1beta\/models\/[^/:]+:countTokens$/, "countTokens"],
    ["POST", /^\/v1beta\/cachedContents$/, "cachedContents.create"],
    ["GET", /^\/v1beta\/cachedContents$/, "cachedContents.list"],
    ["GET", /^\/v1beta\/cachedContents\/[^/:]+$/, "cachedContents.get"],
    ["PATCH", /^\/v1beta\/cachedContents\/[^/:]+$/, "cachedContents.patch"],
    ["DELETE", /^\/v1beta\/cachedContents\/[^/:]+$/, "cachedContents.delete"],
    ["GET", /^\/v1beta\/files$/, "files.list"],
    ["GET", /^\/v1beta\/files\/[^/:]+$/, "files.get"],
    ["DELETE", /^\/v1beta\/files\/[^/:]+$/, "files.delete"],
    ["POST", /^\/v1beta\/fileSearchStores$/, "fileSearchStores.create"],
    ["GET", /^\/v1beta\/fileSearchStores$/, "fileSearchStores.list"],
    ["GET", /^\/v1beta\/fileSearchStores\/[^/:]+$/, "fileSearchStores.get"],
    ["DELETE", /^\/v1beta\/fileSearchStores\/[^/:]+$/, "fileSearchStores.delete"],
    ["POST", /^\/v1beta\/fileSearchStores\/[^/:]+:importFile$/, "fileSearchStores.importFile"],
    ["GET", /^\/v1beta\/fileSearchStores\/[^/:]+\/documents$/, "fileSearchStores.documents.list"],
    [
      "GET",
      /^\/v1beta\/fileSearchStores\/[^/:]+\/documents\/[^/:]+$/,
      "fileSearchStores.documents.get",
    ],
    [
      "DELETE",
      /^\/v1beta\/fileSearchStores\/[^/:]+\/documents\/[^/:]+$/,
      "fileSearchStores.documents.delete",
    ],
    [
      "GET",
      /^\/v1beta\/fileSearchStores\/[^/:]+\/(?:upload\/)?operations\/[^/:]+$/,
      "operations.get",
    ],
    ["POST", /^\/v1beta\/models\/[^/:]+:embedContent$/, "embedContent"],
    ["POST", /^\/v1beta\/models\/[^/:]+:batchEmbedContents$/, "batchEmbedContents"],
    ["POST", /^\/v1beta\/interactions$/, "interactions.create"],
    ["GET", /^\/v1beta\/interactions\/[^/:]+$/, "interactions.get"],
    ["POST", /^\/v1beta\/interactions\/[^/:]+\/cancel$/, "interactions.cancel"],
    ["DELETE", /^\/v1beta\/interactions\/[^/:]+$/, "interactions.delete"],
    ["POST", /^\/v1beta\/openai\/chat\/completions$/, "openai.chat.completions"],
    ["POST", /^\/v1beta\/openai\/embeddings$/, "openai.embeddings"],
    ["GET", /^\/v1beta\/openai\/models(?:\/[^/]+)?$/, "openai.models"],
  ];
  for (const [ruleMethod, pattern, name] of rules)
    if (ruleMethod === method && pattern.test(pathname)) return name;
  return null;
}

/** Paths are compared decoded: `bad%20model` and `bad model` are the same resource. */
function samePath(left, right) {
  try {
    return decodeURIComponent(left) === decodeURIComponent(right);
  } catch {
    return left === right;
  }
}

/**
 * Starts the replay upstream on a free port of 127.0.0.1.
 * @param {{exchanges: object[]}} options
 */
export async function startReplayUpstream({ exchanges }) {
  const byGroup = new Map();
  for (const exchange of exchanges) {
    const list = byGroup.get(exchange.group) ?? [];
    list.push(exchange);
    byGroup.set(exchange.group, list);
  }
  let current = { group: null, answered: new Set() };
  /** Requests nothing recorded matched, and the exchanges answered, for the runner. */
  const unmatched = [];
  const answeredIds = [];

  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://replay");
      const operation = operationOf(request.method ?? "GET", url.pathname, url.searchParams);
      const candidates = (byGroup.get(current.group) ?? []).filter(
        (exchange) => !current.answered.has(exchange.id),
      );
      const exchange = candidates.find(
        (candidate) =>
          candidate.operation === operation &&
          (operation?.endsWith(".upload.chunk") || samePath(candidate.path, url.pathname)),
      );
      if (!exchange) {
        unmatched.push({
          group: current.group,
          method: request.method,
          path: url.pathname,
          operation,
        });
        response.writeHead(404, { "content-type": "application/json; charset=UTF-8" });
        response.end(
          JSON.stringify({
            error: {
              code: 404,
              message: "replay: no recorded exchange matches",
              status: "NOT_FOUND",
            },
          }),
        );
        return;
      }
      current.answered.add(exchange.id);
      answeredIds.push(exchange.id);
      const origin = `http://127.0.0.1:${server.address().port}`;
      const headers = {};
      for (const [name, value] of Object.entries(exchange.responseHeaders ?? {}))
        headers[name] = String(value).replaceAll(SERVICE_ORIGIN, origin);
      const stream = exchange.operation === "streamGenerateContent" && exchange.status === 200;
      if (stream && exchange.query?.alt !== "sse" && url.searchParams.get("alt") === "sse") {
        // Recorded as one JSON array (asked without alt=sse); the same events as the service
        // sends them to a caller that asks for server-sent events.
        headers["content-type"] = "text/event-stream";
        response.writeHead(exchange.status, headers);
        for (const event of JSON.parse(exchange.responseBody))
          response.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
        response.end();
        return;
      }
      response.writeHead(exchange.status, headers);
      if (stream && exchange.query?.alt === "sse") {
        const events = exchange.responseBody.split(/(?<=\r\n\r\n)/);
        for (const event of events) response.write(event);
        response.end();
        return;
      }
      response.end(exchange.responseBody);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Starts the replay of one recording: later requests are matched within it. */
    useGroup(group) {
      current = { group, answered: new Set() };
    },
    unmatched,
    answeredIds,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
