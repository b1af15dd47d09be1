import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/**
 * Lint: Next's rules (React, hooks, accessibility, TypeScript) and the layers of ARCHITECTURE.md.
 * Each zone names the folders a folder may not import from; `import/no-restricted-paths`
 * resolves every specifier (alias or relative), so a layer cannot be crossed by spelling.
 * Tests, e2e specs and benches may reach across layers to drive the real parts.
 */

const zone = (target, from, message) => ({ target, from, message });

const SERVER_SIDE = ["./lib/server", "./lib/db", "./lib/engine"];
const BROWSER_STATE = ["./lib/hooks", "./lib/stores", "./lib/chat-client", "./lib/client"];

/**
 * lib/server's own layers, bottom first: each folder may import only the folders before it.
 * ARCHITECTURE.md ("The server's layers") says what each keeps.
 */
const SERVER_LAYERS = [
  "config", // plain settings: env, logger, secrets
  "persistence", // the database handle and ownership records
  "observability", // metrics and traces
  "http", // request and response plumbing, limits
  "auth", // who is calling: keys, sessions, throttles
  "audit", // who did what
  "people", // accounts, workspaces, managed keys, links
  "logs", // each request's observation and its captured log
  "usage", // recording the usage of answers
  "reports", // what a person reads back: usage and request logs
  "emulator", // the server side of the local engine's emulator: recording, replay
  "upstream", // the gateway's backend over the real service
  "chat", // studio chat turns, over what it is handed
  "wiring", // chooses and builds the backend, makes the turn runner, starts the server
  "models", // model facts over the chosen backend
  "api", // handlers: the API's route table and the studio endpoints
  "pages", // what server-rendered pages read
];

/** Only these server folders reach into the engine (choosing and driving the local backend). */
const ENGINE_USERS = new Set(["emulator", "wiring", "models", "api"]);

const serverZones = SERVER_LAYERS.flatMap((layer, index) => {
  const above = SERVER_LAYERS.slice(index + 1).map((folder) => `./lib/server/${folder}`);
  const zones = [];
  if (above.length > 0)
    zones.push(
      zone(
        `./lib/server/${layer}`,
        above,
        `lib/server/${layer} may import only the server layers below it (${SERVER_LAYERS.slice(0, index).join(", ") || "none"}).`,
      ),
    );
  if (!ENGINE_USERS.has(layer))
    zones.push({
      target: `./lib/server/${layer}`,
      from: "./lib/engine",
      // The emulator's transport faults are answered as HTTP by http/ (they are thrown through it).
      except: layer === "http" ? ["./emulator/faults.ts"] : [],
      message: `lib/server/${layer} does not import the engine: shared helpers live in lib/runtime, the backend is handed in by lib/server/wiring.`,
    });
  return zones;
});

const LAYERS = [
  zone("./lib", ["./app", "./components"], "lib never imports app or components."),
  zone("./components", SERVER_SIDE, "Components run in the browser: no server, db or engine."),
  zone("./lib/hooks", SERVER_SIDE, "Hooks run in the browser: no server, db or engine."),
  zone("./lib/stores", SERVER_SIDE, "Stores run in the browser: no server, db or engine."),
  zone(
    "./lib/chat-client",
    [...SERVER_SIDE, "./lib/hooks", "./lib/stores"],
    "The chat client is plain TypeScript under the hooks and stores: no server, db, engine, hooks or stores.",
  ),
  zone("./lib/stores", "./lib/hooks", "Stores sit under the hooks."),
  zone(
    "./lib/client",
    [...SERVER_SIDE, "./lib/hooks", "./lib/stores", "./lib/chat-client"],
    "lib/client is the browser's plain requests and work under the hooks, stores and chat client: no server, db, engine, hooks, stores or chat client.",
  ),
  zone(
    "./lib/studio",
    [...SERVER_SIDE, ...BROWSER_STATE],
    "The studio's domain is plain data and rules: no server, db, engine, hooks or stores.",
  ),
  zone(
    "./lib/gemini",
    [...SERVER_SIDE, ...BROWSER_STATE, "./lib/studio", "./lib/runtime"],
    "The wire contract depends on nothing else of ours.",
  ),
  zone(
    "./lib/runtime",
    [...SERVER_SIDE, "./lib/studio", ...BROWSER_STATE],
    "The runtime helpers (time slices, JSON in slices, thread priority) sit under the engine and the server: they import only the wire contract.",
  ),
  zone(
    "./lib/engine",
    ["./lib/server", "./lib/studio", ...BROWSER_STATE],
    "The engine is plain TypeScript below the server: no Next glue, no studio or browser state.",
  ),
  zone(
    "./lib/db",
    ["./lib/server", "./lib/engine", ...BROWSER_STATE],
    "Data access sits below the server and the engine.",
  ),
  ...serverZones,
  zone("./", "./lib/testing", "Test support is only for tests."),
  zone("./", "./e2e", "Test code is only for tests."),
];

const SOURCE_FILES = ["**/*.{js,jsx,mjs,ts,tsx,mts,cts}"];
const TEST_FILES = [
  "**/*.test.ts",
  "**/*.test.tsx",
  "e2e/**",
  "bench/**",
  "lib/testing/**",
  "scripts/fuzz.mjs",
  "scripts/replay.mjs",
  "playwright.config.ts",
  "vitest.config.ts",
];

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: SOURCE_FILES,
    ignores: TEST_FILES,
    rules: { "import/no-restricted-paths": ["error", { zones: LAYERS }] },
  },
  {
    files: ["lib/engine/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["next", "next/*"], message: "The engine never imports Next." }] },
      ],
    },
  },
  {
    files: ["lib/chat-client/**", "lib/client/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "zustand", message: "The chat client's stores are zustand/vanilla." }],
          patterns: [
            {
              group: ["react", "react-dom", "react/*", "next", "next/*", "zustand/react"],
              message:
                "The chat client is plain TypeScript: React binds it in lib/hooks and lib/stores.",
            },
            {
              group: ["@tanstack/react-query"],
              allowTypeImports: true,
              message: "The chat client takes the page's QueryClient; it imports only its type.",
            },
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures call their callback `use`, which is not React's.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];

export default config;
