import "server-only";

/**
 * GATEWAY_FORWARD_METHODS: the methods the gateway does not know that the operator lets it
 * forward anyway. Entries are separated by commas or line breaks, each an HTTP method and a
 * path pattern after the version segment (`POST models/*:embedContent`, `GET tunedModels/**`):
 * `*` stands for one or more characters of one path segment, `**` for any rest of the path.
 */

export const FORWARD_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ForwardMethod = (typeof FORWARD_METHODS)[number];

export interface ForwardRule {
  method: ForwardMethod;
  /** The pattern as the operator wrote it. */
  text: string;
  pattern: RegExp;
}

function patternOf(text: string): RegExp | string {
  if (!/^[A-Za-z0-9._:*/{}-]+$/.test(text)) return "only letters, digits, . _ : - / { } and *";
  if (text.startsWith("/")) return "the path comes after the version segment, without a leading /";
  if (text.split("/").some((segment) => segment === "." || segment === ".."))
    return "no . or .. segments";
  const source = text
    .split(/(\*\*|\*)/)
    .map((piece) =>
      piece === "**" ? ".*" : piece === "*" ? "[^/]+" : piece.replace(/[.{}]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}

/** The rules of a GATEWAY_FORWARD_METHODS value; throws a message naming a malformed entry. */
export function parseForwardRules(value: string | undefined): ForwardRule[] {
  const rules: ForwardRule[] = [];
  for (const entry of (value ?? "").split(/[,\n]/)) {
    const trimmed = entry.trim();
    if (trimmed === "") continue;
    const [method, text, ...rest] = trimmed.split(/\s+/);
    const upper = method!.toUpperCase();
    if (!(FORWARD_METHODS as readonly string[]).includes(upper) || !text || rest.length)
      throw new Error(
        `"${trimmed}": each entry is a method (${FORWARD_METHODS.join(", ")}) and a path pattern`,
      );
    const pattern = patternOf(text);
    if (typeof pattern === "string") throw new Error(`"${trimmed}": ${pattern}`);
    rules.push({ method: upper as ForwardMethod, text, pattern });
  }
  return rules;
}

/** The rule that lets `method` on `path` (after the version segment, decoded) be forwarded. */
export function forwardRuleFor(
  rules: readonly ForwardRule[],
  method: string,
  path: string,
): ForwardRule | null {
  if (path.split("/").some((segment) => segment === "." || segment === "..")) return null;
  return rules.find((rule) => rule.method === method && rule.pattern.test(path)) ?? null;
}
