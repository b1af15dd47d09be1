/**
 * What checking a studio-made key costs (see bench/README.md, "Usage, logs and metrics"), side
 * by side in one run on the real modules over a real database holding 1,000 keys: a key of
 * STUDIO_API_KEYS (compared in constant time, its rate taken), a managed key without limits
 * (hashed, found in the identity cache, its rate taken) and a managed key with everything (a
 * model list, its own rate, budgets in tokens and dollars per day and month: rate and spend read
 * in one round trip, then the model and budget checks a generation makes). The request rate is
 * on for all three (as by default) but high enough never to refuse. Printed first: p50 and p95
 * of the three taken in turn (the figures quoted); then vitest's table of each run on its own.
 * Run: `DATA_DIR=$(mktemp -d) npx vitest bench --run bench/key-check.bench.ts`, with
 * DATABASE_URL set for PostgreSQL (`eval "$(bash scripts/test-postgres.sh start)"` first).
 */
import { bench, describe } from "vitest";

const ENV_KEY = "bench-environment-key-0123456789";
Object.assign(process.env, {
  STUDIO_API_KEYS: `bench:${ENV_KEY}`,
  STUDIO_RATE_LIMIT_PER_MINUTE: "100000000",
});

const { dataStores } = await import("@/lib/server/persistence/database-handle");
const { authenticateKey } = await import("@/lib/server/auth/key-auth");
const { assertKeyMayCall } = await import("@/lib/server/auth/key-policy");
const { keyHashingSecret } = await import("@/lib/server/auth/identity-cache");
const { hashKeySecret, keyDisplayPrefix, newKeySecret } =
  await import("@/lib/server/auth/key-secrets");

const MODEL = "gemini-2.5-flash";
const KEYS = 1000;
const stores = await dataStores();
const hashingSecret = await keyHashingSecret();

async function makeKey(index: number, limits: object): Promise<string> {
  const secret = newKeySecret();
  const made = await stores.apiKeys.create({
    ownerId: `bench-workspace-${index % 50}`,
    personId: null,
    name: `bench-${index}`,
    prefix: keyDisplayPrefix(secret),
    secretHash: hashKeySecret(secret, hashingSecret),
    limits,
  });
  if (!made) throw new Error("the bench's key was not made");
  return secret;
}

const secrets: string[] = [];
for (let index = 0; index < KEYS - 2; index++) secrets.push(await makeKey(index, {}));
const plainKey = await makeKey(KEYS - 2, {});
const limitedKey = await makeKey(KEYS - 1, {
  models: ["gemini-2.5-*", "gemini-2.0-flash"],
  requestsPerMinute: 1_000_000,
  tokensPerDay: 1e14,
  tokensPerMonth: 1e15,
  dollarsPerDay: 1e8,
  dollarsPerMonth: 1e9,
});
// Warm: the identity cache holds every key, as it does on a server that has seen them.
for (const secret of [...secrets, plainKey, limitedKey]) await authenticateKey(secret, false);

const VARIANTS: Array<[string, () => Promise<void>]> = [
  [
    "STUDIO_API_KEYS key",
    async () => {
      await authenticateKey(ENV_KEY, true);
    },
  ],
  [
    "managed key, no limits",
    async () => {
      await authenticateKey(plainKey, true);
    },
  ],
  [
    "managed key: models, rate, four budgets",
    async () => assertKeyMayCall(await authenticateKey(limitedKey, true), MODEL),
  ],
];
const database = process.env.DATABASE_URL ? "PostgreSQL" : "SQLite";

/**
 * The figure bench/README.md quotes: the three checks taken in turn, round after round, so the
 * load of a shared machine falls on each alike; p50 and p95 of each.
 */
const ROUNDS = 5000;
const samples = VARIANTS.map((): number[] => []);
for (let round = 0; round < ROUNDS; round++) {
  for (const [index, [, check]] of VARIANTS.entries()) {
    const started = performance.now();
    await check();
    samples[index]!.push(performance.now() - started);
  }
}
const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
console.log(`\nchecking a key, ${database}, ${KEYS} keys, ${ROUNDS} interleaved rounds (ms):`);
for (const [index, [name]] of VARIANTS.entries()) {
  const sorted = samples[index]!.sort((one, other) => one - other);
  console.log(
    `  ${name.padEnd(42)} p50 ${percentile(sorted, 0.5).toFixed(3)}  p95 ${percentile(sorted, 0.95).toFixed(3)}`,
  );
}

describe(`checking a key (${database}, ${KEYS} keys)`, () => {
  for (const [name, check] of VARIANTS) bench(name, check, { time: 2000 });
});
