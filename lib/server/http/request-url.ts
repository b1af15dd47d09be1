import "server-only";

/**
 * A request's URL, parsed once however many steps of its path read it (the observation, the
 * router, authentication's `?key=`). Nothing on the request path changes a request's URL, so
 * the one parsed object is shared.
 */
const parsed = new WeakMap<Request, URL>();

export function requestUrl(request: Request): URL {
  let url = parsed.get(request);
  if (url === undefined) {
    url = new URL(request.url);
    parsed.set(request, url);
  }
  return url;
}
