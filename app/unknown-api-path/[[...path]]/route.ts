import { handleApiRequest } from "@/lib/server/router";

// Target of next.config.ts's fallback rewrite: API-looking paths no other route serves
// (`/v2/...`, `/v1beta3/...`, `/upload/v9/...`, a bare `/v1beta`). The router still sees the
// original URL and answers the service's JSON 404 instead of the studio's HTML page.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = handleApiRequest;
export const POST = handleApiRequest;
export const PUT = handleApiRequest;
export const PATCH = handleApiRequest;
export const DELETE = handleApiRequest;
