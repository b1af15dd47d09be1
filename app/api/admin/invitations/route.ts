import { adminHandlers } from "@/lib/server/api/admin";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export function GET(request: Request): Promise<Response> {
  return adminHandlers.listInvitations(request);
}

export function POST(request: Request): Promise<Response> {
  return adminHandlers.createInvitation(request);
}

export const PUT = methodNotAllowed(["GET", "POST", "HEAD", "OPTIONS"]);
export const PATCH = PUT;
export const DELETE = PUT;
