import { NextResponse, type NextRequest } from "next/server";
import {
  PAGE_HEADERS,
  createNonce,
  pageContentSecurityPolicy,
} from "@/lib/server/http/page-security-headers";

/**
 * Security headers of the studio's pages (lib/server/http/page-security-headers.ts): the
 * nonce goes to the page's render in the request's own policy header, where Next reads it for
 * its scripts, and the policy to the browser. Only pages pass through here (see `config`): a
 * proxy that matched the API would make Next copy request bodies it could then cut at 10 MB.
 */
export function proxy(request: NextRequest) {
  const nonce = createNonce();
  const policy = pageContentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  headers.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      // Every path but the API and upload surfaces (`/v1beta/...`, `/upload/...`, any version
      // segment), the studio's `/api/*`, the emulator's `/emulator/*` (its page `/emulator`
      // stays), the diagram frame (its own policy), Next's static assets and the files of public/.
      source:
        "/((?!api/|emulator/|v\\d|upload/|download/|unknown-api-path|diagram-frame|_next/static|_next/image|[^/]+\\.[A-Za-z0-9]+$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
