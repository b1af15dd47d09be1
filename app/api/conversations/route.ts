import { conversationHandlers } from "@/lib/server/api/conversations";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return conversationHandlers.list(request);
}

export function POST(request: Request): Promise<Response> {
  return conversationHandlers.create(request);
}

export const PUT = methodNotAllowed(["GET", "POST", "HEAD", "OPTIONS"]);
export const PATCH = PUT;
export const DELETE = PUT;
