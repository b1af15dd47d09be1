import { mermaidModuleHandler } from "@/lib/server/api/diagram-frame";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(
  _request: Request,
  { params }: { params: Promise<{ path: string[] }> },
): Promise<Response> {
  return mermaidModuleHandler((await params).path);
}
