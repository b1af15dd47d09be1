/**
 * The gateway's reading of a request body it forwards as received: the operation's own
 * canonical read (lib/gemini/validate's `read…`), run so that fields and enum values it does
 * not know are tolerated (the upstream decides them) instead of refused, plus what the
 * ownership check needs beyond the canonical request: every resource the body names outside
 * its reference fields (lib/gemini/resource-names), and where it spells file references (so
 * the studio's spelling can be written the upstream's way). The local engine reads the same
 * bodies strictly, as the service does.
 */
import { fileReferenceKeys, type ReferenceSpelling } from "./references";
import { ResourceNames, scanBodySteps, type ResourceName } from "./resource-names";
import { stringSpansUnder, type StringSpan } from "./json-string-spans";
import { readForwarding, wireObject } from "./schemas/wire";
import { runSteps } from "./steps";
import { runSchema } from "./validate";

/** What a forwarding read finds in a body besides its canonical request. */
export interface ForwardingFindings {
  /** Resources named outside the reference fields: in unknown fields, known strings, fetched URLs. */
  mentioned: ResourceName[];
  /** The string values of file reference fields, with their byte ranges in the body. */
  fileReferences: FileReferenceSpan[];
}

export interface FileReferenceSpan extends StringSpan {
  /** How the field takes a file: a URI, or the name `files/{id}`. */
  spelling: ReferenceSpelling;
}

let keySet: ReadonlySet<string> | undefined;

/** The names of file reference fields, as one set (stringSpansUnder works out its lengths once). */
function fileReferenceKeySet(): ReadonlySet<string> {
  return (keySet ??= new Set(fileReferenceKeys().keys()));
}

/** A Tool object with a field this reading does not know may be one that fetches. */
const TOOL_TYPE = "Tool";

/**
 * Reads `body` (parsed from `bytes`) with `read` as the gateway does. `read` is any reader built
 * on the wire schemas; its rules other than unknown fields and enum values still apply.
 */
export function readForForwarding<Request>(
  read: (body: unknown) => Request,
  body: unknown,
  bytes: readonly Uint8Array[],
): { request: Request; findings: ForwardingFindings } {
  const names = new ResourceNames();
  const unknown: unknown[] = [];
  let fetching = false;
  const request = readForwarding(
    {
      unknownField(typeName, key, value) {
        unknown.push(key, value);
        if (typeName === TOOL_TYPE) fetching = true;
      },
      knownString(value) {
        names.addWhole(value);
      },
    },
    () => read(body),
  );
  runSteps(scanBodySteps({ body, unknown, fetching }, names));
  const keys = fileReferenceKeys();
  const fileReferences = stringSpansUnder(bytes, fileReferenceKeySet()).map((span) => ({
    ...span,
    spelling: keys.get(span.key)!,
  }));
  return { request, findings: { mentioned: names.list(), fileReferences } };
}

/** A body of a method the gateway does not model: an object none of whose fields it knows. */
const unmodelledBodySchema = wireObject("UnmodelledRequest", {});

/**
 * Reads the body of a method the gateway forwards without modelling it: any JSON object, all
 * of whose fields are unknown, so a forwarding read looks through every string in it.
 */
export function readUnmodelledBody(body: unknown): Record<string, unknown> {
  return runSchema(unmodelledBodySchema, body ?? {}, { requestName: "UnmodelledRequest" });
}
