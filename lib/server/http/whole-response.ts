import "server-only";

/**
 * Where the start script's dispatch (scripts/api-dispatch.cjs) finds the bytes of an answer
 * made whole, while no one has touched its web body: it writes them in one `res.end`.
 */
const WHOLE_BODY = Symbol.for("genstudio.wholeResponseBody");

/**
 * A Response whose body is one buffer made before the answer (a small JSON answer, an error
 * body). It is a Response like any other to whoever reads it (`body`, `text()`, `clone()`...),
 * but its web stream is only made when someone asks for it: a ReadableStream costs more to
 * make than the rest of a small answer together (Node makes each one transferable), and the
 * dispatch, which writes the bytes as they are, never needs one.
 */
export class WholeResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  /** The Response that carries the body as a stream, once someone asked for the body. */
  #streamed: Response | null = null;

  constructor(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  /** The bytes as made, while the web body is untouched (the dispatch's way in). */
  get [WHOLE_BODY](): Uint8Array<ArrayBuffer> | undefined {
    return this.#streamed === null ? this.#bytes : undefined;
  }

  #body(): Response {
    return (this.#streamed ??= new Response(this.#bytes));
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#body().body!;
  }

  override get bodyUsed(): boolean {
    return this.#streamed?.bodyUsed ?? false;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#body().blob();
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    // Node 20's Response has no bytes() of its own.
    return new Uint8Array(await this.#body().arrayBuffer());
  }

  override formData(): Promise<FormData> {
    return this.#body().formData();
  }

  override json(): Promise<unknown> {
    return this.#body().json();
  }

  override text(): Promise<string> {
    return this.#body().text();
  }

  override clone(): WholeResponse {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new WholeResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
  }
}
