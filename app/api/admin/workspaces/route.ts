import { adminHandlers } from "@/lib/server/api/admin";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return adminHandlers.workspaces(request);
}

export const POST = methodNotAllowed(["GET", "HEAD", "OPTIONS"]);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
