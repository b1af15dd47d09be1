/**
 * Runs once when the server starts: validates the configuration (refusing to start when the
 * studio would be an open relay) and opens the database so migrations run before traffic.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/lib/server/wiring/start-up");
  await startServer();
}
