import { conversationHandlers } from "@/lib/server/handlers/conversations";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return conversationHandlers.list(request);
}

export function POST(request: Request): Promise<Response> {
  return conversationHandlers.create(request);
}
