import { sessionHandlers } from "@/lib/server/handlers/session";
import { methodNotAllowed } from "@/lib/server/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST, DELETE } = sessionHandlers;

export const PUT = methodNotAllowed(["GET", "POST", "DELETE", "HEAD", "OPTIONS"]);
export const PATCH = PUT;
