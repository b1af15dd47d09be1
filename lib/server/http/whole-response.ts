import "server-only";

/**
 * Where the start script's dispatch (scripts/api-dispatch.cjs) finds the bytes of an answer
 * made whole, while no one has touched its web body: it writes them in one `res.end`.
 */
const WHOLE_BODY = Symbol.for("genstudio.wholeResponseBody");

/**
 * Where the dispatch finds the headers of an answer made with headers its kind always has
 * (`fixedHeaders`: name, value, name, value..., lower case), while no one has read its
 * `headers`: it writes them as they are, and no Headers is made for the answer.
 */
const WHOLE_HEADERS = Symbol.for("genstudio.wholeResponseHeaders");

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
  /** Headers shared by every answer of its kind (name, value...), or null: `init`'s. */
  readonly #fixedHeaders: readonly string[] | null;
  /** The fixed headers as a Headers, once someone read `headers` (it may then be changed). */
  #headers: Headers | null = null;

  /**
   * With `fixedHeaders` (name, value..., lower case, as Headers would list them), the answer's
   * headers are those and `init.headers` is not read: the Headers is made only if someone
   * reads `headers`, which the dispatch does not (a Headers costs more to make and to list than
   * the rest of a small answer).
   */
  constructor(
    bytes: Uint8Array<ArrayBuffer>,
    init: ResponseInit,
    fixedHeaders: readonly string[] | null = null,
  ) {
    super(
      null,
      fixedHeaders === null ? init : { status: init.status, statusText: init.statusText },
    );
    this.#bytes = bytes;
    this.#fixedHeaders = fixedHeaders;
  }

  /** The bytes as made, while the web body is untouched (the dispatch's way in). */
  get [WHOLE_BODY](): Uint8Array<ArrayBuffer> | undefined {
    return this.#streamed === null ? this.#bytes : undefined;
  }

  /** The fixed headers, while no one has read `headers` (which could change them). */
  get [WHOLE_HEADERS](): readonly string[] | undefined {
    return this.#headers === null ? (this.#fixedHeaders ?? undefined) : undefined;
  }

  override get headers(): Headers {
    const fixed = this.#fixedHeaders;
    if (fixed === null) return super.headers;
    if (this.#headers === null) {
      const headers = new Headers();
      for (let index = 0; index < fixed.length; index += 2)
        headers.append(fixed[index]!, fixed[index + 1]!);
      this.#headers = headers;
    }
    return this.#headers;
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
    const fixed = this[WHOLE_HEADERS] ?? null;
    return new WholeResponse(
      this.#bytes,
      {
        status: this.status,
        statusText: this.statusText,
        ...(fixed === null ? { headers: this.headers } : {}),
      },
      fixed,
    );
  }
}
