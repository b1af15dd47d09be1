import { conversationHandlers } from "@/lib/server/api/conversations";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ conversationId: string }> };

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return conversationHandlers.startTurn(request, (await params).conversationId);
}

export const GET = methodNotAllowed(["POST", "OPTIONS"]);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
