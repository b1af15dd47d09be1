/**
 * The files a batch works with: its link to the input file's bytes, the results it writes
 * under DATA_DIR/batches, and the id of the results File they become.
 */
import path from "node:path";

/** Where a batch's work files live: the input it reads and the results it writes. */
export class BatchPaths {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, "batches");
  }

  /** The batch's own link to its input file's bytes (the file may be deleted meanwhile). */
  input(batchId: string): string {
    return path.join(this.dir, `${batchId}.input.jsonl`);
  }

  /** The results written so far, moved into the files once the batch succeeds. */
  results(batchId: string): string {
    return path.join(this.dir, `${batchId}.results.jsonl`);
  }

  /** The batch id a work file belongs to; null for names of nothing of ours. */
  batchIdOf(fileName: string): string | null {
    const match = /^([a-z0-9]+)\.(?:input|results)\.jsonl$/.exec(fileName);
    return match ? match[1]! : null;
  }
}

/** The id of the results File of a batch: `files/batch-{id}`, as the service names them. */
export function resultsFileId(batchId: string): string {
  return `batch-${batchId}`;
}
