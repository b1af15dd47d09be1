import "server-only";
import { ApiError } from "@/lib/gemini/api-error";
import { requestReferences } from "@/lib/gemini/references";
import { ResourceNames, type ResourceKind, type ResourceName } from "@/lib/gemini/resource-names";
import type { BatchInputLine } from "@/lib/gemini/validate-batch";
import { TimeSlices } from "@/lib/runtime/time-slices";
import { readBodyForForwarding } from "../http/body-reader-client";

/**
 * The gateway's reading of a JSONL file as it is uploaded through it, so that a batch run
 * from the file later can be checked like a direct request (the service lets nobody download
 * an uploaded file: only the gateway ever sees its bytes). Each line is read as a batch's
 * input line, as the gateway reads what it forwards (lib/gemini/forwarding-read): every
 * resource of its reference fields, and every one it names elsewhere, is kept by name. A line
 * the schemas cannot read is looked through whole (every string, or its text, names what it
 * holds): what the upstream would run from it is named somewhere in it.
 *
 * A resumable upload comes in chunks, perhaps to several instances: the reading so far (the
 * names, the bytes read, and the start of a line a chunk cut, when short) is kept with the
 * session (`scan_json`) after each chunk. A reading that cannot go on (a chunk starting at
 * another offset, a long cut line on another instance, a line over MAX_LINE_BYTES, more than
 * MAX_NAMES names) ends: the file is then not read, and no batch runs from it through the
 * gateway. Lines are read in time slices, so an upload of many lines holds no one else.
 */

/** A longer line is not read (the upstream takes bodies of about this size). */
const MAX_LINE_BYTES = 32 * 1024 * 1024;
/** More distinct resources than this in one file: not read. */
const MAX_NAMES = 10_000;
/** The start of a line cut by a chunk is kept with the session when at most this long. */
const PERSISTED_PARTIAL_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** A name as a reading keeps it (`kind:name`), read back. */
export function resourceNameOf(kept: string): ResourceName {
  const colon = kept.indexOf(":");
  return { kind: kept.slice(0, colon) as ResourceKind, name: kept.slice(colon + 1) };
}

/**
 * The gateway's answer to a batch from a file it did not read as it was uploaded: a 400
 * naming the field, as the engine answers an input file that holds no JSONL requests.
 */
export function unreadInputFile(name: string): ApiError {
  return ApiError.invalidArgument(
    `* BatchGenerateContentRequest.batch.input_config.file_name: this gateway runs a batch from a file only when it read the file's lines as they were uploaded through it, and ${name} was not read (uploaded before, elsewhere, or as another type than JSONL or text, or its upload was interrupted). Upload the JSONL file again through the gateway, or send the requests inline.\n`,
  );
}

/** The types of a file worth reading as a batch's input: JSON lines, or text of any kind. */
export function readsAsBatchInput(mimeType: string | undefined): boolean {
  return mimeType === undefined || mimeType === "" || /json|^text\//i.test(mimeType);
}

interface SavedScan {
  names: string[];
  scanned: number;
  /** The start of a cut line, base64; absent when it was too long to keep. */
  partial?: string;
  partialBytes: number;
}

export class BatchFileScan {
  private readonly names = new Set<string>();
  private partial: Uint8Array[] = [];
  private partialBytes = 0;
  private failed = false;
  private readonly slices = new TimeSlices();

  private constructor(private scannedBytes: number) {}

  static start(): BatchFileScan {
    return new BatchFileScan(0);
  }

  /**
   * The reading saved with a session, going on at `offset`; null when it cannot (no reading,
   * another offset, or a cut line that was too long to keep and this instance does not hold).
   */
  static resume(saved: string | null, offset: number): BatchFileScan | null {
    if (saved === null) return null;
    const state = JSON.parse(saved) as SavedScan;
    if (state.scanned !== offset) return null;
    if (state.partialBytes > 0 && state.partial === undefined) return null;
    const scan = new BatchFileScan(state.scanned);
    for (const name of state.names) scan.names.add(name);
    if (state.partial !== undefined) {
      scan.partial = [Buffer.from(state.partial, "base64")];
      scan.partialBytes = state.partialBytes;
    }
    return scan;
  }

  /** Bytes read so far: where the next chunk must start. */
  get scanned(): number {
    return this.scannedBytes;
  }

  /** Bytes of a cut line this reading holds. */
  get heldBytes(): number {
    return this.partialBytes;
  }

  get broken(): boolean {
    return this.failed;
  }

  /** The reading to keep with the session; null once it has ended. */
  saved(): string | null {
    if (this.failed) return null;
    const state: SavedScan = {
      names: [...this.names],
      scanned: this.scannedBytes,
      partialBytes: this.partialBytes,
    };
    if (this.partialBytes <= PERSISTED_PARTIAL_BYTES)
      state.partial = Buffer.concat(this.partial).toString("base64");
    return JSON.stringify(state);
  }

  /** Reads the complete lines of `bytes` (with what came before); keeps the rest. */
  async push(bytes: Uint8Array): Promise<void> {
    this.scannedBytes += bytes.byteLength;
    if (this.failed) return;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
      this.keep(bytes.subarray(start, end));
      await this.readLine();
      start = end + 1;
    }
    this.keep(bytes.subarray(start));
  }

  /** Reads the last line; answers every resource the file names, or null when it was not read. */
  async finish(): Promise<string[] | null> {
    if (!this.failed) await this.readLine();
    return this.failed ? null : [...this.names];
  }

  private keep(bytes: Uint8Array): void {
    if (this.failed || bytes.byteLength === 0) return;
    this.partialBytes += bytes.byteLength;
    if (this.partialBytes > MAX_LINE_BYTES) return this.fail();
    // A copy: the chunk's bytes go on upstream and are not ours to hold.
    this.partial.push(new Uint8Array(bytes));
  }

  private fail(): void {
    this.failed = true;
    this.partial = [];
    this.partialBytes = 0;
  }

  private async readLine(): Promise<void> {
    const pieces = this.partial;
    const size = this.partialBytes;
    this.partial = [];
    this.partialBytes = 0;
    if (this.failed || size === 0) return;
    const found = new ResourceNames();
    try {
      const read = await readBodyForForwarding({ bytes: pieces, size }, "batchInputLine");
      const line = read.request as BatchInputLine;
      for (const reference of requestReferences({
        operation: "generateContent",
        request: line.request,
      }))
        if (reference.name !== null) found.add({ kind: reference.kind, name: reference.name });
      for (const name of read.findings.mentioned) found.add(name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await this.readWhole(pieces, size, found);
    }
    for (const name of found.list()) this.names.add(`${name.kind}:${name.name}`);
    if (this.names.size > MAX_NAMES) this.fail();
    if (this.slices.due()) await this.slices.pause();
  }

  /** A line the schemas cannot read: every string of it (or, not JSON, its text) counts. */
  private async readWhole(pieces: Uint8Array[], size: number, found: ResourceNames) {
    try {
      const read = await readBodyForForwarding({ bytes: pieces, size }, "unmodelled");
      for (const name of read.findings.mentioned) found.add(name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const text = Buffer.concat(pieces).toString("utf8");
      found.addAnywhere(text);
      found.addInUrls(text);
    }
  }
}
