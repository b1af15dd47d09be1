import { presetHandlers } from "@/lib/server/api/presets";
import { methodNotAllowed } from "@/lib/server/http/responses";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Context = { params: Promise<{ name: string }> };

export async function PUT(request: Request, { params }: Context): Promise<Response> {
  return presetHandlers.save(request, (await params).name);
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return presetHandlers.remove(request, (await params).name);
}

export const GET = methodNotAllowed(["PUT", "DELETE", "OPTIONS"]);
export const POST = GET;
export const PATCH = GET;
