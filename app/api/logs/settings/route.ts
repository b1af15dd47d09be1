import { requestLogHandlers } from "@/lib/server/api/request-logs";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return requestLogHandlers.settings(request);
}

export function PUT(request: Request): Promise<Response> {
  return requestLogHandlers.changeSettings(request);
}

export const POST = methodNotAllowed(["GET", "PUT", "HEAD", "OPTIONS"]);
export const PATCH = POST;
export const DELETE = POST;
