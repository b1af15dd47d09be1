import { handleEmulatorRequest } from "@/lib/server/api/emulator-routes";

// The emulator's surface (scenarios, request log, state and time): the local engine's only.
export const GET = handleEmulatorRequest;
export const POST = handleEmulatorRequest;
export const PUT = handleEmulatorRequest;
export const PATCH = handleEmulatorRequest;
export const DELETE = handleEmulatorRequest;
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
