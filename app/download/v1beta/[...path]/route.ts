export { DELETE, GET, PATCH, POST, PUT } from "@/lib/server/api/catch-all-route";

// Segment config is read from the route file itself, so each catch-all declares its own.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const maxDuration = 3600;
