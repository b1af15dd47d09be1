import "server-only";
import { BlockList, isIP } from "node:net";

/**
 * The address a request came from. The connection guard (scripts/connection-guard.cjs) records
 * the socket's address in CLIENT_ADDRESS_HEADER, over anything the client sent. Behind reverse
 * proxies that address is the proxy's: with STUDIO_TRUSTED_PROXIES naming them (CIDRs), the
 * client is the nearest address in `X-Forwarded-For` that is not a trusted proxy, read from
 * the right (each proxy appends the address it saw; anything left of the first untrusted one
 * is whatever the client claimed). Without it, `X-Forwarded-For` is never read.
 */

/** Set by scripts/connection-guard.cjs from the socket, over anything the client sent. */
export const CLIENT_ADDRESS_HEADER = "x-genstudio-client-address";

/** Parses `10.0.0.0/8, 192.168.1.7, fd00::/8`; throws with the entry that is not a CIDR. */
export function parseTrustedProxies(value: string | undefined): string[] {
  if (!value) return [];
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split("/");
    const family = isIP(address ?? "");
    const maxBits = family === 6 ? 128 : 32;
    const prefix = bits === undefined ? maxBits : Number(bits);
    if (
      family === 0 ||
      rest.length > 0 ||
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > maxBits
    )
      throw new Error(`"${entry}" is not an IPv4 or IPv6 address or CIDR`);
  }
  return entries;
}

/** IPv4 addresses as IPv6 sockets report them (`::ffff:10.0.0.1`) in their plain form. */
function plain(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, "");
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(trimmed) ? trimmed.slice(7) : trimmed;
}

export function trustedProxyList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split("/");
    const family = isIP(address!) === 6 ? "ipv6" : "ipv4";
    const prefix = bits === undefined ? (family === "ipv6" ? 128 : 32) : Number(bits);
    list.addSubnet(plain(address!), prefix, family);
  }
  return list;
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the socket's, or (when the socket is a trusted proxy) the nearest
 * untrusted address `X-Forwarded-For` names. "unknown" when the guard did not record one.
 */
export function resolveClientAddress(
  socketAddress: string | null,
  forwardedFor: string | null,
  proxies: BlockList | null,
): string {
  let address = plain(socketAddress ?? "");
  if (address === "") return "unknown";
  if (proxies === null || forwardedFor === null) return address;
  const hops = forwardedFor
    .split(",")
    .map(plain)
    .filter((hop) => hop !== "");
  while (trusted(proxies, address) && hops.length > 0) {
    const next = hops.pop()!;
    if (isIP(next) === 0) break;
    address = next;
  }
  return address;
}
