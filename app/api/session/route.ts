import { sessionHandlers } from "@/lib/server/api/session";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST, DELETE } = sessionHandlers;

export const PUT = methodNotAllowed(["GET", "POST", "DELETE", "HEAD", "OPTIONS"]);
export const PATCH = PUT;
