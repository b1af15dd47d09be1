import { presetHandlers } from "@/lib/server/api/presets";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = presetHandlers.list;

export const POST = methodNotAllowed(["GET", "HEAD", "OPTIONS"]);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
