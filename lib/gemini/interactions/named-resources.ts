/**
 * Every resource of the service an Interactions create body names, wherever it stands: the
 * gateway forwards this API's bodies unchanged without modelling their fields, so instead of a
 * list of reference places it looks at every string. A string names a resource when it is one
 * whole resource name (`files/{id}`, `cachedContents/{id}`, `fileSearchStores/{id}`, also
 * inside a document's or operation's name, `batches/{id}`) or an http(s) URL whose path holds
 * one (the service's full resource URIs, the studio's file URIs); prompts and other text are
 * not names. The interaction a body continues is `previous_interaction_id`. Walked without
 * recursion, one value at a time (see Steps), so a large body is read in slices.
 */
import { cachedContentNameOfUrl, fileNameOfUri } from "../references";
import type { Steps } from "../steps";

export type NamedKind = "file" | "cachedContent" | "fileSearchStore" | "batch" | "interaction";

export interface NamedResource {
  kind: NamedKind;
  name: string;
}

/** What a string found in a body stands for. */
export type NamedString =
  | { kind: "resource"; resource: NamedResource }
  /** An http(s) URL naming no resource; the gateway refuses one on the upstream's own origin. */
  | { kind: "url"; url: string };

const ID = "[A-Za-z0-9][A-Za-z0-9._-]*";
const BARE = new RegExp(`^(files|cachedContents|fileSearchStores|batches)/(${ID})(?:/.*)?$`);
const KINDS: Record<string, NamedKind> = {
  files: "file",
  cachedContents: "cachedContent",
  fileSearchStores: "fileSearchStore",
  batches: "batch",
};
/** Longer strings are text, not names (a URL of the API is far shorter). */
const LONGEST_NAME = 4_096;

function storeOfUrl(url: string): string | null {
  try {
    const segments = decodeURIComponent(new URL(url).pathname).split("/");
    const index = segments.findIndex((segment) => segment.toLowerCase() === "filesearchstores");
    const id = index >= 0 ? segments[index + 1] : undefined;
    return id ? `fileSearchStores/${id}` : null;
  } catch {
    return null;
  }
}

function batchOfUrl(url: string): string | null {
  try {
    const match = /\/batches\/([^/:?#]+)/i.exec(new URL(url).pathname);
    return match ? `batches/${match[1]}` : null;
  } catch {
    return null;
  }
}

/** What one string of a body names, or null when it names nothing. */
export function namedString(value: string): NamedString | null {
  const text = value.trim();
  if (text.length === 0 || text.length > LONGEST_NAME) return null;
  if (/^https?:\/\//i.test(text)) {
    const file = /\/files\//i.test(text) ? fileNameOfUri(text) : null;
    if (file) return { kind: "resource", resource: { kind: "file", name: file } };
    const cache = cachedContentNameOfUrl(text);
    if (cache) return { kind: "resource", resource: { kind: "cachedContent", name: cache } };
    const store = storeOfUrl(text);
    if (store) return { kind: "resource", resource: { kind: "fileSearchStore", name: store } };
    const batch = batchOfUrl(text);
    if (batch) return { kind: "resource", resource: { kind: "batch", name: batch } };
    return { kind: "url", url: text };
  }
  const bare = BARE.exec(text);
  if (!bare) return null;
  return { kind: "resource", resource: { kind: KINDS[bare[1]!]!, name: `${bare[1]}/${bare[2]}` } };
}

/** Every resource and URL a body's strings name, and the interaction it continues. */
export function* namedInBodySteps(body: unknown): Steps<NamedString[]> {
  const found: NamedString[] = [];
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const previous = (body as Record<string, unknown>).previous_interaction_id;
    if (typeof previous === "string")
      found.push({ kind: "resource", resource: { kind: "interaction", name: previous } });
  }
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      const named = namedString(value);
      if (named) found.push(named);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push(value[index]);
    } else if (typeof value === "object" && value !== null) {
      for (const child of Object.values(value)) stack.push(child);
    }
    yield;
  }
  return found;
}
