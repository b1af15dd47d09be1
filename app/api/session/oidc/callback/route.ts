import { providerSignInHandlers } from "@/lib/server/api/provider-sign-in";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return providerSignInHandlers.callback(request);
}

export const POST = methodNotAllowed(["GET", "HEAD", "OPTIONS"]);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
