import { adminHandlers } from "@/lib/server/api/admin";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ linkId: string }> };

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return adminHandlers.withdrawInvitation(request, (await params).linkId);
}

export const GET = methodNotAllowed(["DELETE", "HEAD", "OPTIONS"]);
export const POST = GET;
export const PUT = GET;
export const PATCH = GET;
