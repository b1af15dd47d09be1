import { apiKeyHandlers } from "@/lib/server/api/api-keys";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ keyId: string }> };

export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return apiKeyHandlers.update(request, (await params).keyId);
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return apiKeyHandlers.revoke(request, (await params).keyId);
}

export const GET = methodNotAllowed(["PATCH", "DELETE", "HEAD", "OPTIONS"]);
export const POST = GET;
export const PUT = GET;
