import { conversationHandlers } from "@/lib/server/api/conversations";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ conversationId: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return conversationHandlers.exportOne(request, (await params).conversationId);
}

export const POST = methodNotAllowed(["GET", "HEAD", "OPTIONS"]);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
