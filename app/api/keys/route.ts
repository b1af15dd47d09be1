import { apiKeyHandlers } from "@/lib/server/api/api-keys";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return apiKeyHandlers.list(request);
}

export function POST(request: Request): Promise<Response> {
  return apiKeyHandlers.create(request);
}

export const PUT = methodNotAllowed(["GET", "POST", "HEAD", "OPTIONS"]);
export const PATCH = PUT;
export const DELETE = PUT;
