/**
 * One request at a time per upload session, here and on every other instance sharing the
 * database: the claim across instances is the store's lock, which dies with its holder, so a
 * session an instance was killed in the middle of is free again at once. What this process
 * knows of a session (the SHA-256 of the bytes so far) travels with the claim.
 */
import { createHash, type Hash } from "node:crypto";
import type { FileStore } from "@/lib/db/stores/file-store";
import { sessionBusy } from "./upload-errors";

export interface LiveSession {
  /** Bytes `hash` covers; another instance may have taken the session further since. */
  hashedSize: number;
  /** The session's claim across instances while `busy`. */
  release: (() => Promise<void>) | null;
  /** SHA-256 of the bytes received so far; null until needed after a restart. */
  hash: Hash | null;
  busy: boolean;
}

export class SessionClaims {
  private readonly live = new Map<string, LiveSession>();

  constructor(private readonly store: Pick<FileStore, "claimSession">) {}

  /** A session just started here: its hash starts empty, nothing received yet. */
  opened(sessionId: string): void {
    this.live.set(sessionId, {
      hash: createHash("sha256"),
      hashedSize: 0,
      busy: false,
      release: null,
    });
  }

  /** What this process knows of the session, if anything. */
  known(sessionId: string): LiveSession | undefined {
    return this.live.get(sessionId);
  }

  /** Drops what this process knows of a session that ended (final, cancelled, swept). */
  forget(sessionId: string): void {
    this.live.delete(sessionId);
  }

  /** The session for this request alone, or null when another request (here or elsewhere) is using it. */
  async claimIfFree(sessionId: string): Promise<LiveSession | null> {
    let live = this.live.get(sessionId);
    if (!live) {
      live = { hash: null, hashedSize: 0, busy: false, release: null };
      this.live.set(sessionId, live);
    }
    if (live.busy) return null;
    live.busy = true;
    try {
      live.release = await this.store.claimSession(sessionId);
    } catch (error) {
      live.busy = false;
      throw error;
    }
    if (live.release === null) {
      live.busy = false;
      return null;
    }
    return live;
  }

  /** The session for this request alone, or the service's 409 when another request has it. */
  async claim(sessionId: string): Promise<LiveSession> {
    const live = await this.claimIfFree(sessionId);
    if (live) return live;
    throw sessionBusy();
  }

  async unclaim(live: LiveSession): Promise<void> {
    const release = live.release;
    live.release = null;
    live.busy = false;
    await release?.().catch(() => undefined);
  }
}
