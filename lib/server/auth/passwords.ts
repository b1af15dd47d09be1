import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt, memory-hard (OWASP's first choice of parameters: N = 2^17,
 * r = 8, p = 1, so 128 MiB and a few hundred milliseconds per hash). The stored form names its
 * parameters (`scrypt$N$r$p$salt$hash`), so they can be raised later and old hashes still
 * verify. At most two hashes run at once per process: a burst of sign-ins waits its turn
 * instead of taking the machine's memory.
 */

const DEFAULT_COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const CONCURRENT_HASHES = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }) {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r + 16 * 1024 * 1024 };
  return withHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

/** The stored form of a new password. */
export async function hashPassword(password: string, cost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return [
    "scrypt",
    cost.N,
    cost.r,
    cost.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** A hash no password matches, verified for unknown accounts so they take as long as known ones. */
const UNKNOWN_ACCOUNT_HASH = `scrypt$${DEFAULT_COST.N}$${DEFAULT_COST.r}$${DEFAULT_COST.p}$${randomBytes(16).toString("base64url")}$${randomBytes(KEY_LENGTH).toString("base64url")}`;

/**
 * True when `password` matches `stored`. A null `stored` (no such account, or no password
 * set) is checked against a hash nothing matches, taking the same time.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = (stored ?? UNKNOWN_ACCOUNT_HASH).split("$");
  if (scheme !== "scrypt" || !salt || !expected) return false;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const key = await derive(password, Buffer.from(salt, "base64url"), cost);
  const wanted = Buffer.from(expected, "base64url");
  return stored !== null && wanted.length === key.length && timingSafeEqual(key, wanted);
}
