import { sessionHandlers } from "@/lib/server/handlers/session";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const { GET, POST, DELETE } = sessionHandlers;
