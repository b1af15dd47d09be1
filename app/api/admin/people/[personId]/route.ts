import { adminHandlers } from "@/lib/server/api/admin";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ personId: string }> };

export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return adminHandlers.updatePerson(request, (await params).personId);
}

export const GET = methodNotAllowed(["PATCH", "HEAD", "OPTIONS"]);
export const POST = GET;
export const PUT = GET;
export const DELETE = GET;
