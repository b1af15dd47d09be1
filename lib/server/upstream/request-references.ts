import "server-only";
import type { OwnedKind, OwnershipStore } from "@/lib/db/stores/ownership-store";
import type { ReceivedBody } from "@/lib/gemini/backend/contract";
import type { ApiError } from "@/lib/gemini/api-error";
import {
  fileNameOfUri,
  requestReferencesSteps,
  type ReferencingRequest,
} from "@/lib/gemini/references";
import {
  ResourceNames,
  scanBodySteps,
  type ResourceKind,
  type ResourceName,
} from "@/lib/gemini/resource-names";
import { splicedPieces } from "@/lib/gemini/json-string-spans";
import { runInSlices } from "@/lib/runtime/time-slices";
import { runSteps } from "@/lib/gemini/steps";
import { IN_THREAD_BYTES } from "../http/body-reader-client";
import { fileDenied, resourceNotFound } from "@/lib/gemini/resource-errors";
import { ownershipDenied } from "../persistence/ownership";
import type { NamedResource } from "./gone-resources";

/**
 * The gateway's ownership check of what it forwards. Every resource a request names must be
 * the caller's, or the request is refused with the service's answer for that kind before
 * anything goes upstream: the references of its canonical reading (every place
 * lib/gemini/references lists) and every resource named elsewhere in the body
 * (lib/gemini/resource-names: unknown fields, known strings, URLs a fetching tool may read).
 * A kind the gateway never records an owner for (operations, tuned models) is nobody's. What
 * goes upstream is then the body as the client sent it, except that file references in the
 * studio's spelling are written in the upstream's (the gateway hands out its own file URIs).
 */

export interface ReferenceCheck {
  ownerId: string;
  ownership: OwnershipStore;
  /** The upstream's base URL: file references are forwarded as its file URIs. */
  upstreamBaseUrl: string;
}

/** What the gateway sends once a request is checked: the bytes as received, or a JSON value (UpstreamCall's fields). */
export type ForwardBody = { jsonBytes: Uint8Array[] } | { json: unknown };

/** Under which kind the gateway records owners of a resource kind; null: it records none. */
const OWNED_KIND: Record<ResourceKind, OwnedKind | null> = {
  file: "file",
  cachedContent: "cachedContent",
  fileSearchStore: "fileSearchStore",
  batch: "batch",
  interaction: "interaction",
  operation: null,
  tunedModel: null,
};

/** Names looked up in one query (two parameters each, well under every driver's limit). */
const OWNERS_PER_QUERY = 500;

function originOf(uri: string): string | null {
  try {
    return new URL(uri.trim()).origin;
  } catch {
    return null;
  }
}

function refusal(resource: ResourceName): ApiError {
  const owned = OWNED_KIND[resource.kind];
  return owned === null ? resourceNotFound(resource.name) : ownershipDenied(owned, resource.name);
}

/**
 * Throws the service's refusal for the first of `resources` that is not `check.ownerId`'s
 * (owners read in a query per OWNERS_PER_QUERY names); answers them as recorded resources,
 * so an upstream answer saying one is gone can end its record.
 */
export async function assertOwnsAll(
  resources: readonly ResourceName[],
  check: Omit<ReferenceCheck, "upstreamBaseUrl">,
): Promise<NamedResource[]> {
  const named: NamedResource[] = [];
  for (const resource of resources) {
    const kind = OWNED_KIND[resource.kind];
    if (kind === null) throw refusal(resource);
    named.push({ kind, name: resource.name });
  }
  for (let start = 0; start < named.length; start += OWNERS_PER_QUERY) {
    const chunk = named.slice(start, start + OWNERS_PER_QUERY);
    const owners = await check.ownership.ownersOf(chunk);
    for (const { kind, name } of chunk)
      if (owners.get(`${kind}:${name}`) !== check.ownerId) throw ownershipDenied(kind, name);
  }
  return named;
}

/**
 * Checks every resource `input.request` names (and, when the client's body is at hand,
 * every resource the body names elsewhere) against the caller, and answers what to send
 * upstream with the resources named. Throws the service's refusal for one the caller does
 * not own, and for any other address on the upstream's own origin in a file reference
 * (which only the upstream could interpret).
 */
export async function checkReferences(
  input: ReferencingRequest,
  received: ReceivedBody | undefined,
  check: ReferenceCheck,
): Promise<{ named: NamedResource[]; body: ForwardBody }> {
  // In slices: a request of megabytes has a great many parts to look through. A body read on
  // the request's thread (a few kilobytes) is looked through at once.
  const steps = requestReferencesSteps(input);
  const references =
    received !== undefined && received.size < IN_THREAD_BYTES
      ? runSteps(steps)
      : await runInSlices(steps);
  const names = new ResourceNames();
  let upstreamOrigin: string | undefined;
  for (const reference of references) {
    if (reference.name !== null) names.add({ kind: reference.kind, name: reference.name });
    else if (
      originOf(reference.value) === (upstreamOrigin ??= new URL(check.upstreamBaseUrl).origin)
    )
      throw fileDenied(reference.value.slice(0, 200));
  }
  if (received) for (const name of received.findings.mentioned) names.add(name);
  // A request the studio built has no unknown fields, but its text may hold URLs to fetch.
  else await runInSlices(scanBodySteps({ body: input.request, unknown: [] }, names));
  const listed = names.list();
  // Most requests name nothing: no owner to look up, no promise to wait for.
  const named = listed.length === 0 ? [] : await assertOwnsAll(listed, check);
  const files = new Set(named.filter((item) => item.kind === "file").map((item) => item.name));
  const upstreamSpelling = (name: string, spelling: "uri" | "name") =>
    spelling === "name" ? name : `${check.upstreamBaseUrl}/v1beta/${name}`;
  if (!received) {
    for (const reference of references)
      if (reference.kind === "file" && reference.name !== null)
        reference.replace(upstreamSpelling(reference.name, reference.spelling));
    return { named, body: { json: input.request } };
  }
  const replacements: { start: number; end: number; text: string }[] = [];
  for (const span of received.findings.fileReferences) {
    const name = fileNameOfUri(span.value);
    if (name === null || !files.has(name)) continue;
    const wanted = upstreamSpelling(name, span.spelling);
    if (span.value !== wanted)
      replacements.push({ start: span.start, end: span.end, text: JSON.stringify(wanted) });
  }
  return { named, body: { jsonBytes: splicedPieces(received.bytes, replacements) } };
}
