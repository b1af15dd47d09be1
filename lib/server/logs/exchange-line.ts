import "server-only";

/**
 * A logged exchange as one line of the recorded-exchanges format of the conformance
 * recordings (`recorded-exchanges/README.md`: method, path as sent, query without `key`,
 * request headers and response headers kept only for `content-type` and `x-goog-upload-*`,
 * the request body parsed when it is JSON, the status, the answer's text as the client
 * received it with SSE framing byte for byte), with the fields cassettes add
 * (`cassetteVersion`, `responseTiming`: when the answer's headers and each piece arrived), so
 * an exported log replays as a cassette. What a log could not keep says so in fields of its
 * own: `requestBodyNote`, `responseBodyCut`.
 */

export const CASSETTE_VERSION = 1;

/** Headers the format keeps (names lower-cased). */
const KEPT_HEADER = /^(?:content-type|x-goog-upload-.*)$/;

export function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (KEPT_HEADER.test(lower)) kept[lower] = value;
  });
  return kept;
}

export interface ExchangeParts {
  request: Request;
  url: URL;
  operation: string;
  /** The request body's text as logged (media left out unless asked for). */
  requestBody: string;
  /** True when the request body was longer than a log keeps. */
  requestCut: boolean;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  responseCut: boolean;
  timing: { headersMs: number; chunks: Array<[number, number]> };
}

function requestBodyFields(parts: ExchangeParts): Record<string, unknown> {
  if (parts.requestCut)
    return { requestBodyEncoding: "none", requestBodyNote: "not logged: longer than a log keeps" };
  if (parts.requestBody === "") return { requestBodyEncoding: "none" };
  try {
    return { requestBodyEncoding: "json", requestBody: JSON.parse(parts.requestBody) as unknown };
  } catch {
    return {
      requestBodyEncoding: "base64",
      requestBody: Buffer.from(parts.requestBody, "utf8").toString("base64"),
    };
  }
}

/** The exchange as a recorded-exchanges line (JSON text, no newline). */
export function exchangeLine(id: string, parts: ExchangeParts): string {
  const query: Record<string, string> = {};
  for (const [name, value] of parts.url.searchParams) if (name !== "key") query[name] = value;
  const requestHeaders = keptHeaders(parts.request.headers);
  return JSON.stringify({
    id: `genstudio-log:${id}`,
    group: `genstudio-log:${id}`,
    operation: parts.operation,
    method: parts.request.method,
    path: parts.url.pathname,
    query,
    requestHeaders,
    ...requestBodyFields(parts),
    status: parts.status,
    responseHeaders: parts.responseHeaders,
    responseBody: parts.responseBody,
    ...(parts.responseCut ? { responseBodyCut: true } : {}),
    cassetteVersion: CASSETTE_VERSION,
    responseTiming: parts.timing,
  });
}
