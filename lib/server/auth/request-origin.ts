/**
 * Whether a browser says a request comes from a page of another origin. A browser sends
 * `Origin` on every request that changes state and `Sec-Fetch-Site` on every request; programs
 * send neither. An `Origin` naming another host is refused whatever `Sec-Fetch-Site` says:
 * `none` means "the user typed it", which a page never causes, so a request that carries both
 * a foreign `Origin` and `none` is forged or from a browser that lies, and either way not ours.
 */
export function fromAnotherOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null && !originIsAddressedHost(origin, request.headers.get("host"))) return true;
  const fetchSite = request.headers.get("sec-fetch-site");
  return fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none";
}

/** An Origin header names the host the request was addressed to (`null` and junk never do). */
function originIsAddressedHost(origin: string, host: string | null): boolean {
  try {
    return host !== null && new URL(origin).host === host;
  } catch {
    return false;
  }
}
