/**
 * The cassettes the local engine replays: the instance's (GENSTUDIO_REPLAY's top folder, every
 * caller), each caller's own (its folder there, `ownerFolder`, and those it posts), matched by
 * method, path, query and body, exactly (the same JSON) or normalised (the same request once
 * read: snake_case or camelCase, `/v1` or `/v1beta`, key order, `models/` prefixes). Of the
 * exchanges that match, the first the caller has not been answered with yet is taken, those
 * of the group it last replayed from first (a recording's creates before its gets); when all
 * were used, the last repeats. Replay state is per caller.
 */
import { ApiError } from "@/lib/gemini/api-error";
import { ownerFolder, type RecordedExchange } from "./cassette-format";

export type MatchMode = "exact" | "normalised";

export interface ReplayOptions {
  match: MatchMode;
  /** `recorded`: a body's pieces at their recorded offsets; `full`: at once. */
  pace: "recorded" | "full";
  /** On a request no exchange matches: the engine answers, or a 501 says so. */
  onMiss: "engine" | "fail";
}

export interface Cassette {
  name: string;
  source: "caller" | "instance";
  options: ReplayOptions;
  exchanges: RecordedExchange[];
  index: Map<string, RecordedExchange[]>;
}

export interface CassetteView {
  name: string;
  source: "caller" | "instance";
  exchanges: number;
  match: MatchMode;
  pace: ReplayOptions["pace"];
  onMiss: ReplayOptions["onMiss"];
}

/** What a request is matched on; its body is read only when a cassette may answer it. */
export interface ReplayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, its text when not JSON, or undefined (none, or bytes not read). */
  body: unknown;
}

export const MAX_CASSETTES_PER_CALLER = 100;

export class ReplayStore {
  private readonly callers = new Map<string, Cassette[]>();
  private readonly instance: Cassette[] = [];
  /** Cassettes of GENSTUDIO_REPLAY's owner folders, by folder name (see ownerFolder). */
  private readonly folders = new Map<string, Cassette[]>();
  private readonly folderOf = new Map<string, string>();
  private readonly used = new Map<
    string,
    { counts: WeakMap<RecordedExchange, number>; group?: string }
  >();

  addInstance(name: string, exchanges: RecordedExchange[], options: ReplayOptions): void {
    this.instance.push(cassette(name, "instance", exchanges, options));
  }

  /** A cassette of the owner whose folder (ownerFolder) is `folder`. */
  addForFolder(
    folder: string,
    name: string,
    exchanges: RecordedExchange[],
    options: ReplayOptions,
  ): void {
    const list = this.folders.get(folder) ?? [];
    list.push(cassette(name, "caller", exchanges, options));
    this.folders.set(folder, list);
  }

  /** The caller's cassettes: those it posted, then those of its folder. */
  private own(ownerId: string): Cassette[] {
    const posted = this.callers.get(ownerId) ?? [];
    if (this.folders.size === 0) return posted;
    let folder = this.folderOf.get(ownerId);
    if (folder === undefined) this.folderOf.set(ownerId, (folder = ownerFolder(ownerId)));
    const recorded = this.folders.get(folder);
    return recorded ? [...posted, ...recorded] : posted;
  }

  /** Adds (or replaces, by name) one of the caller's cassettes. */
  add(
    ownerId: string,
    name: string,
    exchanges: RecordedExchange[],
    options: ReplayOptions,
  ): CassetteView {
    const list = this.callers.get(ownerId) ?? [];
    const kept = list.filter((item) => item.name !== name);
    if (kept.length >= MAX_CASSETTES_PER_CALLER)
      throw ApiError.invalidArgument(
        `You hold ${MAX_CASSETTES_PER_CALLER} cassettes; delete some before adding another.`,
        [{ field: "name", description: "one cassette too many" }],
      );
    const added = cassette(name, "caller", exchanges, options);
    this.callers.set(ownerId, [...kept, added]);
    return view(added);
  }

  list(ownerId: string): CassetteView[] {
    return [...this.own(ownerId), ...this.instance].map(view);
  }

  /** Removes one of the caller's cassettes by name; false when it has none of that name. */
  remove(ownerId: string, name: string): boolean {
    const list = this.callers.get(ownerId) ?? [];
    const kept = list.filter((item) => item.name !== name);
    this.callers.set(ownerId, kept);
    return kept.length !== list.length;
  }

  /** Removes the caller's cassettes and forgets what it was answered with. */
  clear(ownerId: string): void {
    this.callers.delete(ownerId);
    this.used.delete(ownerId);
  }

  isEmpty(ownerId: string): boolean {
    return this.instance.length === 0 && this.own(ownerId).length === 0;
  }

  /**
   * The exchange that answers `request` for this caller (counted as used), or a miss that says
   * whether a cassette asks to fail loudly.
   */
  find(
    ownerId: string,
    request: ReplayRequest,
  ): { exchange: RecordedExchange; options: ReplayOptions } | { miss: "engine" | "fail" } {
    let state = this.used.get(ownerId);
    if (!state) this.used.set(ownerId, (state = { counts: new WeakMap() }));
    const keys = new Map<MatchMode, string>();
    let miss: "engine" | "fail" = "engine";
    for (const item of [...this.own(ownerId), ...this.instance]) {
      let key = keys.get(item.options.match);
      if (key === undefined)
        keys.set(item.options.match, (key = requestKey(request, item.options.match)));
      const candidates = item.index.get(key);
      if (!candidates) {
        if (item.options.onMiss === "fail") miss = "fail";
        continue;
      }
      const exchange = pick(candidates, state);
      state.counts.set(exchange, (state.counts.get(exchange) ?? 0) + 1);
      if (exchange.group) state.group = exchange.group;
      return { exchange, options: item.options };
    }
    return { miss };
  }
}

function pick(
  candidates: RecordedExchange[],
  state: { counts: WeakMap<RecordedExchange, number>; group?: string },
): RecordedExchange {
  const unused = (exchange: RecordedExchange) => !state.counts.get(exchange);
  return (
    candidates.find((exchange) => unused(exchange) && exchange.group === state.group) ??
    candidates.find(unused) ??
    candidates[candidates.length - 1]!
  );
}

function cassette(
  name: string,
  source: Cassette["source"],
  exchanges: RecordedExchange[],
  options: ReplayOptions,
): Cassette {
  const index = new Map<string, RecordedExchange[]>();
  for (const exchange of exchanges) {
    const key = requestKey(
      {
        method: exchange.method,
        path: exchange.path,
        query: new URLSearchParams(exchange.query),
        body:
          exchange.requestBodyEncoding === "json"
            ? exchange.requestBody
            : exchange.requestBodyEncoding === "none"
              ? undefined
              : BINARY,
      },
      options.match,
    );
    let list = index.get(key);
    if (!list) index.set(key, (list = []));
    list.push(exchange);
  }
  return { name, source, options, exchanges, index };
}

function view(item: Cassette): CassetteView {
  return {
    name: item.name,
    source: item.source,
    exchanges: item.exchanges.length,
    match: item.options.match,
    pace: item.options.pace,
    onMiss: item.options.onMiss,
  };
}

/**
 * Upload chunks are matched by their session and offset, never by their bytes. A registered
 * symbol: the server build may hold two copies of this module (the store is made by one, the
 * requests read by another).
 */
export const BINARY = Symbol.for("genstudio.replay.binaryBody");

/** The key a request is matched on, in the given mode. */
export function requestKey(request: ReplayRequest, mode: MatchMode): string {
  let path = request.path;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Kept as sent: it is compared with the recording's own spelling.
  }
  const query = [...request.query.entries()]
    .filter(([name]) => name !== "key")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let body: unknown = request.body === BINARY ? undefined : request.body;
  if (mode === "normalised") {
    path = path.replace(/^\/(upload\/|download\/)?v1(?:beta|alpha)?\//, "/$1v1beta/");
    if (isEmptyBody(body)) body = undefined;
    else body = normalised(body);
  }
  return `${request.method} ${path}?${new URLSearchParams(query).toString()}\n${stableJson(body)}`;
}

function isEmptyBody(body: unknown): boolean {
  return (
    body === undefined ||
    body === "" ||
    (typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length === 0)
  );
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The same request however spelt: camelCase keys, `models/` prefixes dropped, and fields that
 * say nothing (null, `{}`, `[]`) left out, as a client may or may not send them.
 */
function normalised(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalised);
  if (typeof value === "string") return value.replace(/^models\//, "");
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const read = normalised(item);
    if (read === null || isEmptyBody(read) || (Array.isArray(read) && read.length === 0)) continue;
    out[camel(key)] = read;
  }
  return out;
}

/** JSON with object keys sorted, so key order never decides a match. */
function stableJson(value: unknown): string {
  if (value === undefined) return "";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
