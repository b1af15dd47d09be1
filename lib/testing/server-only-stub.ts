// Vitest runs server modules in plain Node, where the "server-only" guard has nothing to guard.
export {};
