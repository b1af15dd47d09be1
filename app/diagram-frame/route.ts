import { diagramFrameHandler } from "@/lib/server/api/diagram-frame";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = diagramFrameHandler;
