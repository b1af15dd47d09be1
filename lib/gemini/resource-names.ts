/**
 * The names of the service's resources wherever a request body may spell them, for the
 * gateway's ownership check of what it forwards without modelling (ARCHITECTURE.md, "Forward
 * what is not modelled"): in a known reference field a value is a
 * reference (lib/gemini/references); in a known free-text field (a part's text) it is text,
 * except the URLs a tool that fetches may read; in an unknown field every string that names a
 * resource counts; in any other known string field, a value that is itself a resource name.
 *
 * A name is a collection segment (`files`, `cachedContents`, `fileSearchStores`, `batches`,
 * `interactions`, `operations`, `tunedModels`, in any letter case) and the id after it, found
 * in every spelling a reader might resolve: bare, in a path or URL of any host (the studio's
 * and the service's file URIs), percent-encoded (to any depth a reader decodes), with
 * backslashes, doubled slashes, tabs or dot segments (as the URL parser resolves them).
 * Finding more than a reader resolves only refuses more: the check fails closed. Ids hold
 * letters, digits, `-` and `_`; a segment with a dot (`files/report.pdf`) is a path, not an
 * id, for neither the service nor the engine makes such ids.
 *
 * Every function is linear in its input: one pass of fixed regular expressions per spelling,
 * at most MAX_DECODINGS + 2 spellings per string.
 */
import type { Steps } from "./steps";

export type ResourceKind =
  | "file"
  | "cachedContent"
  | "fileSearchStore"
  | "batch"
  | "interaction"
  | "operation"
  | "tunedModel";

/** A resource a request names: its kind and its name as the service spells it (`files/abc`). */
export interface ResourceName {
  kind: ResourceKind;
  name: string;
}

const COLLECTIONS: Record<string, [ResourceKind, string]> = {
  files: ["file", "files"],
  cachedcontents: ["cachedContent", "cachedContents"],
  filesearchstores: ["fileSearchStore", "fileSearchStores"],
  batches: ["batch", "batches"],
  interactions: ["interaction", "interactions"],
  operations: ["operation", "operations"],
  tunedmodels: ["tunedModel", "tunedModels"],
};

/** A collection segment and the segment after it; not the tail of a longer word (`myfiles/`). */
const PAIR =
  /(?<![A-Za-z0-9_])(files|cachedcontents|filesearchstores|batches|interactions|operations|tunedmodels)\/+([A-Za-z0-9_.~-]+)/gi;
/** What lies between a store or tuned model and an operation of its own. */
const OWN_OPERATION_GAP = /^\/+(?:upload\/+)?$/i;
/** Resources whose operations are named under them (`fileSearchStores/s/upload/operations/o`). */
const PARENTS = new Set<ResourceKind>(["fileSearchStore", "tunedModel"]);
/** An http(s) URL as a reader might take it out of text, up to the next space or quote. */
const URL_IN_TEXT = /https?:[^\s"'<>]*/gi;
/** How often a percent-encoded spelling is decoded again (`%252F` is `%2F` is `/`). */
const MAX_DECODINGS = 3;

/**
 * `%XX` decoded byte by byte (and `%uXXXX`), a malformed escape kept as written: `unescape`,
 * native and linear, where a callback per escape costs a hundred times more.
 */
function decodePercents(text: string): string {
  return unescape(text);
}

/**
 * The spellings of `text` a reader may resolve: as written with backslashes read as slashes
 * and tabs and line breaks dropped (what the URL parser does), and each percent-decoding of it.
 */
function spellings(text: string): string[] {
  let spelled = /[\\\t\r\n]/.test(text) ? text.replace(/\\/g, "/").replace(/[\t\r\n]/g, "") : text;
  const all = [spelled];
  for (let round = 0; round < MAX_DECODINGS && spelled.includes("%"); round++) {
    const decoded = decodePercents(spelled);
    if (decoded === spelled) break;
    all.push(decoded);
    spelled = decoded;
  }
  return all;
}

/** The path of an http(s) URL as the URL parser resolves it (dot segments, `%2e`), or null. */
function urlPath(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" ? url.pathname : null;
  } catch {
    return null;
  }
}

/** Every resource named in a body, each once, in the order first found. */
export class ResourceNames {
  private readonly found = new Map<string, ResourceName>();

  get size(): number {
    return this.found.size;
  }

  list(): ResourceName[] {
    return [...this.found.values()];
  }

  add(resource: ResourceName): void {
    const key = `${resource.kind}:${resource.name}`;
    if (!this.found.has(key)) this.found.set(key, resource);
  }

  /** Every name anywhere in `text` (a string of an unknown field, or an object key there). */
  addAnywhere(text: string): void {
    if (!/[/\\%]/.test(text)) return;
    for (const spelled of spellings(text)) this.addPairs(spelled);
    for (const url of text.matchAll(URL_IN_TEXT)) this.addUrlPath(url[0]);
    // A value that is a URL as a whole, spaces included, as a reader of the value parses it.
    if (/^\s*https?:/i.test(text)) this.addUrlPath(text.trim());
  }

  /** The names in `text` when it is, as a whole, a name, path or URL (a known field's value). */
  addWhole(text: string): void {
    if (/\S\s+\S/.test(text.trim())) return;
    this.addAnywhere(text);
  }

  /** The names in the http(s) URLs of `text`: what a tool that fetches URLs could read. */
  addInUrls(text: string): void {
    if (!/https?:/i.test(text)) return;
    for (const url of text.matchAll(URL_IN_TEXT)) {
      for (const spelled of spellings(url[0])) this.addPairs(spelled);
      this.addUrlPath(url[0]);
    }
  }

  private addUrlPath(candidate: string): void {
    const path = urlPath(candidate.replace(/\\/g, "/"));
    if (path !== null) for (const spelled of spellings(path)) this.addPairs(spelled);
  }

  private addPairs(text: string): void {
    let parentEnd = -1;
    PAIR.lastIndex = 0;
    for (let match = PAIR.exec(text); match !== null; match = PAIR.exec(text)) {
      const [kind, collection] = COLLECTIONS[match[1]!.toLowerCase()]!;
      const start = match.index;
      if (
        kind === "operation" &&
        parentEnd >= 0 &&
        OWN_OPERATION_GAP.test(text.slice(parentEnd, start))
      ) {
        parentEnd = -1;
        continue;
      }
      const id = match[2]!.replace(/\.+$/, "");
      if (PARENTS.has(kind)) parentEnd = start + match[0].length;
      if (id === "" || /[.~]/.test(id)) continue;
      this.add({ kind, name: `${collection}/${id}` });
    }
  }
}

/** Keys and string values that turn on a tool which fetches URLs, written without `_`, lower case. */
const FETCHING_TOOLS = new Set(["urlcontext", "computeruse"]);
/** A request on a cached content runs with the cache's tools, which the request does not show. */
const FETCHING_CONTEXT = new Set(["cachedcontent"]);

function fetchingName(text: string, key: boolean): boolean {
  if (text.length > 16) return false;
  const plain = text.replace(/_/g, "").toLowerCase();
  return FETCHING_TOOLS.has(plain) || (key && FETCHING_CONTEXT.has(plain));
}

/** Strings (and object keys) visited between two yields. */
const STRINGS_PER_STEP = 256;

/**
 * Calls `visit` on every string of a JSON value and every key of its objects, walking it
 * without recursion, one step per STRINGS_PER_STEP strings.
 */
export function* jsonStringsSteps(
  value: unknown,
  visit: (text: string, isKey: boolean) => void,
): Steps {
  const stack: unknown[] = [value];
  let visited = 0;
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === "string") {
      visit(node, false);
      if (++visited % STRINGS_PER_STEP === 0) yield;
    } else if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) stack.push(node[index]);
    } else if (typeof node === "object" && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        visit(key, true);
        stack.push(child);
      }
    }
  }
}

/** What the gateway looks through in a body besides its reference fields. */
export interface BodyScan {
  /** The body as parsed from its JSON, before any canonical reading. */
  body: unknown;
  /** The values of fields the canonical reading did not know: every name in them counts. */
  unknown: readonly unknown[];
  /** True when the reading found a tool that may fetch (one it does not know, say). */
  fetching?: boolean;
}

/**
 * Adds to `names` every resource the body names outside its known fields: anywhere in the
 * unknown values, and, when a tool that fetches URLs may be on (a `urlContext` or
 * `computerUse` tool in any spelling, `scan.fetching`, or a cached content, whose tools the
 * request does not show), in every URL of every string of the body. One pass over the body
 * and one over the unknown values.
 */
export function* scanBodySteps(scan: BodyScan, names: ResourceNames): Steps {
  for (const value of scan.unknown)
    yield* jsonStringsSteps(value, (text) => names.addAnywhere(text));
  let fetching = scan.fetching === true;
  const inUrls = new ResourceNames();
  yield* jsonStringsSteps(scan.body, (text, isKey) => {
    if (!fetching && fetchingName(text, isKey)) fetching = true;
    if (!isKey) inUrls.addInUrls(text);
  });
  if (fetching) for (const name of inUrls.list()) names.add(name);
}
