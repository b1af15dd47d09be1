import { conversationHandlers } from "@/lib/server/handlers/conversations";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ conversationId: string }> };

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return conversationHandlers.appendMessages(request, (await params).conversationId);
}
