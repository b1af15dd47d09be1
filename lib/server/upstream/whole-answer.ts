import "server-only";
import { Readable } from "node:stream";
import { errors, type Dispatcher } from "undici";
import { markStage } from "../observability/request-stages";

/**
 * One upstream exchange whose answer is read to its end before anything is done with it (a
 * JSON answer), through undici's `dispatch` with a handler that keeps the answer's pieces as
 * they arrive. undici's `request()` serves answers read as streams: it makes an AsyncResource
 * per call, a Readable for the body and a listener per stream event, none of which a whole
 * answer needs. An answer longer than its limit either ends the exchange or, when the caller
 * passes long answers on, goes on as a Readable from there. The dispatcher's own timeouts
 * (connection, first byte, between pieces) apply as to any request; `signal` ends the exchange
 * at any point, as `request()`'s does.
 */

/**
 * An answer whose status and headers arrived; its body read whole, or why it was not. Its
 * headers are not kept: no caller of a JSON answer reads them, so they are not parsed.
 */
export interface WholeAnswer {
  status: number;
  /** The body's pieces as they came (all of it unless `bodyError` or `rest` is set). */
  pieces: Buffer[];
  size: number;
  /**
   * Why the body was not read to its end after the headers arrived: the connection lost, a
   * timeout, the signal, or the status's byte limit passed (the exchange is then ended).
   */
  bodyError?: unknown;
  /**
   * A 2xx answer longer than its limit, with `overflow: "stream"`: the rest of its body as it
   * arrives (`pieces` holds everything before). Destroying it ends the exchange.
   */
  rest?: Readable;
}

export interface WholeAnswerOptions {
  /** Where and what to send, as undici's `dispatch` takes it. */
  request: Dispatcher.DispatchOptions;
  signal: AbortSignal;
  /** The most body bytes held for an answer of `status`. */
  limit: (status: number) => number;
  /** The error an answer past its limit ends with (when it does not go on as a stream). */
  tooLarge: (status: number) => Error;
  /** What a 2xx answer past its limit does: ends the exchange (the default), or goes on as `rest`. */
  overflow?: "end" | "stream";
}

/**
 * Sends one request and reads its answer whole. Rejects with undici's (or the signal's) error
 * when no answer's headers arrived; once they did, resolves, with `bodyError` set when the
 * body did not arrive whole.
 */
export function wholeAnswer(
  dispatcher: Dispatcher,
  options: WholeAnswerOptions,
): Promise<WholeAnswer> {
  return new Promise((resolve, reject) => {
    const handler = new WholeAnswerHandler(options, resolve, reject);
    handler.listen();
    dispatcher.dispatch(options.request, handler);
  });
}

class WholeAnswerHandler implements Dispatcher.DispatchHandler {
  private abortExchange: ((reason: Error) => void) | null = null;
  private resume: (() => void) | null = null;
  private answer: WholeAnswer | null = null;
  private rest: Readable | null = null;
  private limit = 0;
  /** The answer passed its limit and the exchange was ended. */
  private cut = false;
  /** The exchange is over (whole, failed or cut). */
  private ended = false;

  constructor(
    private readonly options: WholeAnswerOptions,
    private readonly resolve: (answer: WholeAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /** Follows the signal until the exchange ends; one already aborted ends it at connection. */
  listen(): void {
    if (!this.options.signal.aborted)
      this.options.signal.addEventListener("abort", this.onAbort, { once: true });
  }

  private readonly onAbort = () => {
    this.abortExchange?.(this.abortReason());
  };

  /** What the exchange ends with when the signal aborts, as `request()` has it. */
  private abortReason(): Error {
    return this.options.signal.reason ?? new errors.RequestAbortedError();
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.ended) return;
    this.abortExchange = abort;
    if (this.options.signal.aborted) abort(this.abortReason());
  }

  onHeaders(status: number, _rawHeaders: unknown, resume: () => void): boolean {
    // 1xx answers are informational; the real one follows.
    if (status < 200 || this.ended) return true;
    markStage("upstream answered");
    this.resume = resume;
    this.limit = this.options.limit(status);
    this.answer = { status, pieces: [], size: 0 };
    return true;
  }

  onData(piece: Buffer): boolean {
    if (this.rest !== null) return this.rest.push(piece);
    const answer = this.answer;
    if (answer === null || this.ended || this.cut) return !this.cut;
    answer.size += piece.byteLength;
    if (answer.size <= this.limit) {
      answer.pieces.push(piece);
      return true;
    }
    if (this.options.overflow === "stream" && answer.status < 300) {
      answer.pieces.push(piece);
      this.rest = this.restStream();
      this.resolve({ ...answer, rest: this.rest });
      return true;
    }
    this.cut = true;
    this.abortExchange?.(this.options.tooLarge(answer.status));
    return false;
  }

  /** The rest of a long answer: read as its reader asks, and destroyed means the exchange ends. */
  private restStream(): Readable {
    return new Readable({
      read: () => this.resume?.(),
      destroy: (error, callback) => {
        if (!this.ended) this.abortExchange?.(error ?? new errors.RequestAbortedError());
        callback(error);
      },
    });
  }

  onComplete(): void {
    if (this.ended) return;
    if (this.answer === null) {
      this.onError(new Error("The upstream's answer ended before its headers."));
      return;
    }
    this.finish();
    if (this.rest !== null) this.rest.push(null);
    else this.resolve(this.answer);
  }

  onError(error: Error): void {
    if (this.ended) return;
    this.finish();
    const body = this.options.request.body;
    if (body instanceof Readable && !body.destroyed)
      body.on("error", () => undefined).destroy(error);
    // As undici's own body does: the reader may not be listening yet.
    if (this.rest !== null) this.rest.on("error", () => undefined).destroy(error);
    else if (this.answer === null) this.reject(error);
    else this.resolve({ ...this.answer, bodyError: error });
  }

  private finish(): void {
    this.ended = true;
    this.options.signal.removeEventListener("abort", this.onAbort);
  }
}
