import { conversationHandlers } from "@/lib/server/api/conversations";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ conversationId: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return conversationHandlers.read(request, (await params).conversationId);
}

export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return conversationHandlers.update(request, (await params).conversationId);
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return conversationHandlers.remove(request, (await params).conversationId);
}

export const POST = methodNotAllowed(["GET", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
export const PUT = POST;
