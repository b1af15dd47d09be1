import { conversationHandlers } from "@/lib/server/api/conversations";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function POST(request: Request): Promise<Response> {
  return conversationHandlers.importArchive(request);
}

export const GET = methodNotAllowed(["POST", "OPTIONS"]);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
