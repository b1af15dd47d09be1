import { requestLogHandlers } from "@/lib/server/api/request-logs";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ logId: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return requestLogHandlers.read(request, (await params).logId);
}

export const POST = methodNotAllowed(["GET", "HEAD", "OPTIONS"]);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
