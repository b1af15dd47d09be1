import { adminHandlers } from "@/lib/server/api/admin";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function PUT(request: Request): Promise<Response> {
  return adminHandlers.switchWorkspace(request);
}

export const GET = methodNotAllowed(["PUT", "HEAD", "OPTIONS"]);
export const POST = GET;
export const PATCH = GET;
export const DELETE = GET;
