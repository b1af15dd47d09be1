export { DELETE, GET, PATCH, POST, PUT } from "@/lib/server/api/catch-all-route";

// Target of next.config.ts's fallback rewrite: API-looking paths no other route serves
// (`/v2/...`, `/v1beta3/...`, `/upload/v9/...`, a bare `/v1beta`). The router still sees the
// original URL and answers the service's JSON 404 instead of the studio's HTML page.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
