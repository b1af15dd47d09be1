import { defineConfig } from "vitest/config";

// The example's own configuration: only its test, against a running studio.
export default defineConfig({
  test: { include: ["weather-client.test.ts"], testTimeout: 30_000 },
});
