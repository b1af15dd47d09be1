import { accountHandlers } from "@/lib/server/api/account";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function POST(request: Request): Promise<Response> {
  return accountHandlers.setPassword(request);
}

export const GET = methodNotAllowed(["POST", "HEAD", "OPTIONS"]);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
