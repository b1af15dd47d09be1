import { adminHandlers } from "@/lib/server/api/admin";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ personId: string }> };

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return adminHandlers.resetPersonPassword(request, (await params).personId);
}

export const GET = methodNotAllowed(["POST", "HEAD", "OPTIONS"]);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
