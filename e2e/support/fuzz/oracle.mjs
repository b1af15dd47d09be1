/**
 * What every answer must satisfy, whatever was sent: an answer at all (no hang, no dropped
 * connection), never a 5xx, and every 4xx the service's error body
 * `{"error": {"code", "message", "status"}}` whose code is the HTTP status and whose status
 * is an RPC status that goes with it. Successful answers must parse as what they claim.
 */

/** google.rpc.Code → HTTP, as the service maps them. */
export const RPC_HTTP_STATUS = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  DATA_LOSS: 500,
  UNKNOWN: 500,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** HTTP statuses the service answers that the RPC table has no row for, and the RPC status each carries. */
const HTTP_ONLY_STATUSES = {
  405: ["UNIMPLEMENTED"],
  408: ["DEADLINE_EXCEEDED"],
  411: ["INVALID_ARGUMENT"],
  413: ["INVALID_ARGUMENT", "OUT_OF_RANGE", "RESOURCE_EXHAUSTED"],
  415: ["INVALID_ARGUMENT"],
  431: ["INVALID_ARGUMENT"],
};

/** The RPC statuses acceptable with an HTTP status. */
export function rpcStatusesFor(httpStatus) {
  const canonical = Object.entries(RPC_HTTP_STATUS)
    .filter(([, code]) => code === httpStatus)
    .map(([name]) => name);
  return [...canonical, ...(HTTP_ONLY_STATUSES[httpStatus] ?? [])];
}

/** The Interactions API's string error code of each HTTP status (its own error body). */
const INTERACTION_CODES = {
  400: "invalid_request",
  403: "permission_denied",
  404: "not_found",
  413: "invalid_request",
  429: "resource_exhausted",
};

/**
 * Problems with an error body of an Interactions route (`{"error": {"message", "code"}}`, the
 * code a string that goes with the status); a failure before the route is known (an unknown
 * path or method) has the service's usual body.
 */
export function interactionErrorBodyProblems(text, httpStatus) {
  let code;
  try {
    code = JSON.parse(text)?.error?.code;
  } catch {
    code = undefined;
  }
  if (typeof code !== "string") return errorBodyProblems(text, httpStatus);
  const problems = [];
  const message = JSON.parse(text).error.message;
  if (typeof message !== "string" || message.length === 0)
    problems.push("error.message is missing or empty");
  const expected = INTERACTION_CODES[httpStatus];
  if (code !== expected)
    problems.push(
      `error.code ${JSON.stringify(code)} does not go with HTTP ${httpStatus} (expected ${expected ?? "none"})`,
    );
  return problems;
}

function describe(request) {
  return `${request.label}: ${request.method} ${request.path}`;
}

/** Problems with an error body (empty when it is the service's), for `httpStatus`. */
export function errorBodyProblems(text, httpStatus) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return [`${httpStatus} without a JSON error body (${JSON.stringify(text.slice(0, 120))})`];
  }
  const error = body?.error;
  if (typeof error !== "object" || error === null)
    return [`${httpStatus} body has no "error" object (${text.slice(0, 120)})`];
  const problems = [];
  if (error.code !== httpStatus)
    problems.push(`error.code ${JSON.stringify(error.code)} differs from HTTP ${httpStatus}`);
  if (typeof error.message !== "string" || error.message.length === 0)
    problems.push("error.message is missing or empty");
  const allowed = rpcStatusesFor(httpStatus);
  if (!allowed.includes(error.status))
    problems.push(
      `error.status ${JSON.stringify(error.status)} does not go with HTTP ${httpStatus} (expected ${allowed.join(" or ") || "none"})`,
    );
  return problems;
}

function successProblems(request, answer) {
  if (request.method === "HEAD" || answer.status === 204 || answer.text === "") return [];
  const type = answer.headers["content-type"] ?? "";
  if (type.startsWith("text/event-stream")) {
    const problems = [];
    for (const block of answer.text.split(/\r?\n\r?\n/)) {
      // An Interactions event names its type on a line of its own before its data.
      const line = block.trim().replace(/^event: [a-z_.]+\r?\n(?=data:)/, "");
      if (line === "" || line.startsWith(":") || line === "data: [DONE]") continue;
      const json = line.startsWith("data:") ? line.slice(5).trim() : line;
      try {
        JSON.parse(json);
      } catch {
        problems.push(`stream event is not JSON: ${line.slice(0, 80)}`);
      }
    }
    return problems;
  }
  if (type.includes("json")) {
    try {
      JSON.parse(answer.text);
      return [];
    } catch {
      return [`${answer.status} ${type} body is not JSON: ${answer.text.slice(0, 80)}`];
    }
  }
  // Pages are not part of the fuzzed surface; anything else must say what it is.
  return type ? [] : [`${answer.status} with a body but no Content-Type`];
}

/**
 * Checks one exchange. `answer` is what the client returned (an answer or a failure);
 * `secrets` are strings that must never appear in an answer.
 * @returns {string[]} problems, each prefixed with the request it came from
 */
export function checkExchange(request, answer, { secrets = [] } = {}) {
  const where = describe(request);
  if ("failure" in answer) {
    if (answer.failure === "timeout") return [`${where}: hang (${answer.message})`];
    if (answer.failure === "connection")
      return [`${where}: connection dropped without an answer (${answer.message})`];
    return [];
  }
  const problems = [];
  if (answer.status >= 500) problems.push(`5xx ${answer.status}`);
  if (answer.status >= 400 && request.method !== "HEAD")
    problems.push(
      ...(request.label.startsWith("interactions.")
        ? interactionErrorBodyProblems(answer.text, answer.status)
        : errorBodyProblems(answer.text, answer.status)),
    );
  if (answer.status >= 300 && answer.status < 400 && !answer.headers.location)
    problems.push(`${answer.status} without a Location`);
  if (answer.status >= 200 && answer.status < 300)
    problems.push(...successProblems(request, answer));
  const everything = `${JSON.stringify(answer.headers)}\n${answer.text}`;
  for (const secret of secrets)
    if (everything.includes(secret)) problems.push("the answer contains a server secret");
  return problems.map((problem) => `${where}: ${problem}`);
}
