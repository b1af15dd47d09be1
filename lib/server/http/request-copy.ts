/**
 * `request` with another body: the same URL, method, headers and signal, named one by one.
 * A request the start script's dispatch made (scripts/api-dispatch.cjs) reads as a web
 * Request but is not one, and Request's constructor copies only its own kind; every part a
 * handler reads of a request it was given is carried over.
 */
export function requestWithBody(request: Request, body: BodyInit): Request {
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    duplex: "half",
    signal: request.signal,
  } as RequestInit);
}
