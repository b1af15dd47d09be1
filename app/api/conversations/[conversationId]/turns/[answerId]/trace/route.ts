import { conversationHandlers } from "@/lib/server/api/conversations";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ conversationId: string; answerId: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { conversationId, answerId } = await params;
  return conversationHandlers.turnTrace(request, conversationId, answerId);
}

export const POST = methodNotAllowed(["GET", "HEAD", "OPTIONS"]);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
