import "server-only";
import { constants as http2Constants } from "node:http2";
import type { TLSSocket } from "node:tls";
import { Agent, Client, Dispatcher, buildConnector } from "undici";
import type { UpstreamSettings } from "../config/env";

/**
 * The gateway's connections to the upstream, two kinds:
 * - `unary`: every exchange whose answer is read whole or ends on its own (token counts,
 *   generations, files, caches, models, downloads, uploads): an undici Agent, HTTP/1.1
 *   keep-alive, one exchange a connection at a time. Its per-exchange cost is the least undici
 *   has (its HTTP/2 client adds about half a millisecond to each exchange).
 * - `held`: answers held open while they last (event streams passed on as they come). An
 *   upstream that offers HTTP/2 by ALPN (Google's does) carries many of them at once on one TLS
 *   connection, so a held stream costs a stream on a shared connection instead of a connection
 *   of its own. undici 7 needs four things for that, which this module gives it:
 *   - a connection's client learns its protocol when it connects: on HTTP/2 it takes as many
 *     exchanges at once as the peer allows (otherwise undici runs one at a time), on HTTP/1.1
 *     one (more would be pipelining, a held stream blocking those behind it);
 *   - a request goes to a connection with room by the connections' own counts (`SharedConnections`);
 *   - a request whose body is whole in memory is marked idempotent for undici, which otherwise
 *     runs a POST alone on its connection. undici uses the mark only to decide whether a request
 *     may run beside others: it never sends a request twice by itself (a connection lost fails
 *     every exchange on it); whether to try again stays the gateway's (retry-policy.ts);
 *   - a request whose body is a stream (upload chunks) goes to `unary`: undici would queue it
 *     on a shared connection until every exchange there had ended, and a held stream lasts
 *     minutes.
 *   A graceful GOAWAY (the peer closing a connection once its open streams end), which undici
 *   7 takes for a lost connection, lets those streams finish (`followPeer`).
 *   Until the first connection has said its protocol, held answers wait for it rather than each
 *   opening a connection of its own: on HTTP/2 that one connection takes them all.
 *   A plain-HTTP upstream, or one whose connection said HTTP/1.1, cannot share: held answers go
 *   through `unary` like every other exchange, one a connection, on the same keep-alive
 *   connections.
 * Which kind a call is, only the caller knows (a stream may be asked for by a body field), so
 * the UpstreamClient picks by its call's `held`.
 */

/** Exchanges a connection takes before the peer's SETTINGS arrive: HTTP/2's recommended least. */
const STREAMS_BEFORE_SETTINGS = 100;
/** The most exchanges put on one connection, whatever the peer allows: a lost connection ends them all. */
const MOST_STREAMS_A_CONNECTION = 1000;
/** How long an idle connection is kept for the next exchange. */
const KEEP_ALIVE_MS = 10_000;

export interface UpstreamDispatcherOptions {
  /** Certificates trusted besides the system's (a test upstream's own). */
  ca?: string | Buffer;
}

/** The gateway's two ways to the upstream, see above. */
export interface UpstreamDispatchers {
  /** Answers held open while they last (event streams): HTTP/2 shared where the upstream offers it. */
  held: Dispatcher;
  /** Every other exchange: HTTP/1.1 keep-alive, one exchange a connection at a time. */
  unary: Dispatcher;
}

/** The dispatchers upstream exchanges go through, see above. */
export function createUpstreamDispatchers(
  settings: UpstreamSettings,
  options: UpstreamDispatcherOptions = {},
): UpstreamDispatchers {
  const tls = { timeout: settings.connectTimeoutMs, ...(options.ca ? { ca: options.ca } : {}) };
  const timeouts = {
    headersTimeout: settings.firstByteTimeoutMs,
    bodyTimeout: settings.idleTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_MS,
  };
  const origin = new URL(settings.baseUrl).origin;
  const unary = new Agent({ ...timeouts, connect: tls });
  const shared = {
    ...timeouts,
    // The connector has its own; here it bounds the wait for a new connection's first SETTINGS.
    connectTimeout: settings.connectTimeoutMs,
    allowH2: true,
    maxConcurrentStreams: STREAMS_BEFORE_SETTINGS,
    connect: buildConnector({ ...tls, allowH2: true }),
  };
  return { held: new HeldStreamDispatcher(origin, shared, unary), unary };
}

/** True for a body undici reads as a stream: one it would never run beside other exchanges. */
function isStreamedBody(body: Dispatcher.DispatchOptions["body"]): boolean {
  if (body === null || body === undefined || typeof body !== "object") return false;
  return (
    typeof (body as { pipe?: unknown }).pipe === "function" ||
    typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/** undici's two ways to be told a dispatcher is done: a promise, or a callback. */
function settled(done: Promise<unknown>, callback?: () => void): Promise<void> | void {
  const finished = done.then(() => undefined);
  if (!callback) return finished;
  void finished.then(callback);
}

/** `destroy`'s arguments as undici passes them: an error, a callback, or both. */
function destroyArguments(
  first?: Error | null | (() => void),
  second?: () => void,
): { error: Error | null; callback?: () => void } {
  return typeof first === "function"
    ? { error: null, callback: first }
    : { error: first ?? null, callback: second };
}

/**
 * A dispatcher that ends by ending the dispatchers or connections it holds: undici's
 * `close` and `destroy` overloads (a promise, or a callback) answered once, over `closeAll`
 * and `destroyAll`.
 */
abstract class HoldingDispatcher extends Dispatcher {
  /** Ends once every exchange running has ended; takes nothing new. */
  protected abstract closeAll(): Promise<unknown>;
  /** Ends every exchange at once, with `error`. */
  protected abstract destroyAll(error: Error | null): Promise<unknown>;

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    return settled(this.closeAll(), callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const { error, callback } = destroyArguments(first, second);
    return settled(this.destroyAll(error), callback);
  }
}

/** An exchange given to a dispatcher and not yet passed on. */
interface WaitingExchange {
  options: Dispatcher.DispatchOptions;
  handler: Dispatcher.DispatchHandler;
}

/**
 * Held streams: whole-body ones to the shared connections where the upstream speaks HTTP/2,
 * the rest to `unary` (not owned: closed by its owner). While the first shared connection is
 * being made, the held streams that come wait for it to say its protocol.
 */
class HeldStreamDispatcher extends HoldingDispatcher {
  private readonly shared: SharedConnections;
  private readonly waiting: WaitingExchange[] = [];

  constructor(
    private readonly origin: string,
    /** Options of the shared connections (whole-body exchanges, HTTP/2 where offered). */
    sharedOptions: Client.Options,
    /** Streamed-body exchanges, any other origin, and everything on HTTP/1.1: one a connection. */
    private readonly unary: Dispatcher,
  ) {
    super();
    this.shared = new SharedConnections(origin, sharedOptions, (connected) =>
      this.release(connected),
    );
  }

  override dispatch(
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    if (isStreamedBody(options.body) || String(options.origin) !== this.origin)
      return this.unary.dispatch(options, handler);
    if (this.shared.protocol === "http/1.1") return this.unary.dispatch(options, handler);
    if (this.shared.learning) {
      this.waiting.push({ options, handler });
      return true;
    }
    return this.shared.dispatch({ ...options, idempotent: true }, handler);
  }

  /**
   * The first connection has said its protocol (`connected`), or failed: the exchanges that
   * waited for it go where it says; after a failure each opens a connection of its own, as
   * though none had waited (one failing connection at a time would make the last wait longest).
   */
  private release(connected: boolean): void {
    for (const { options, handler } of this.waiting.splice(0)) {
      if (connected) this.dispatch(options, handler);
      else this.shared.dispatch({ ...options, idempotent: true }, handler);
    }
  }

  protected closeAll(): Promise<void> {
    return this.shared.close();
  }

  protected destroyAll(error: Error | null): Promise<void> {
    return this.shared.destroy(error);
  }
}

/** What a connection agreed on by ALPN; plain HTTP is always HTTP/1.1 (no h2c here). */
type Protocol = "h2" | "http/1.1";

/**
 * What the origin's connections last said: their protocol (unknown until the first has
 * connected, and on HTTP/2 until its peer's SETTINGS), and how many exchanges a connection
 * takes at once (the peer's HTTP/2 allowance, or 1 for HTTP/1.1 and before the first
 * connection). A new connection starts from it, so the requests given it while it connects
 * all go at once.
 */
interface LearnedProtocol {
  protocol?: Protocol;
  streams: number;
}

/**
 * The connections to one origin: a request goes to the first connection with room (fewer
 * exchanges running or queued than it takes at once), else to a new connection. undici's Pool
 * is not used: it picks by the "drain" events of its clients, and a client can emit one (a
 * microtask late) after it has filled up again, so with many exchanges a connection a request
 * could be queued behind held streams.
 */
class SharedConnections extends HoldingDispatcher {
  private readonly clients: Client[] = [];
  /** Connections the peer is closing (graceful GOAWAY): their open streams finish, nothing new goes there. */
  private readonly retiring = new Set<Client>();
  private readonly learned: LearnedProtocol;
  /** Closed or destroyed: a connection asked for now is destroyed at once, failing its request. */
  private ended = false;

  constructor(
    private readonly origin: string,
    private readonly options: Client.Options,
    /** Told each time a connection is made (true) or fails to be (false). */
    private readonly onConnectionAnswered: (connected: boolean) => void,
  ) {
    super();
    this.learned = {
      streams: 1,
      protocol: new URL(origin).protocol === "http:" ? "http/1.1" : undefined,
    };
  }

  /** The protocol the last connection agreed on; undefined before the first has connected. */
  get protocol(): Protocol | undefined {
    return this.learned.protocol;
  }

  /** True while a first connection is being made and none has said its protocol yet. */
  get learning(): boolean {
    return this.learned.protocol === undefined && this.clients.length > 0;
  }

  override dispatch(
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    const client =
      this.clients.find((candidate) => candidate.stats.size < (candidate.pipelining ?? 1)) ??
      this.connection();
    client.dispatch(options, handler);
    return true;
  }

  private connection(): Client {
    const client = clientLearningItsProtocol(
      this.origin,
      this.options,
      this.learned,
      this.onConnectionAnswered,
      () => this.retire(client),
    );
    if (this.ended) void client.destroy().catch(() => undefined);
    // A connection that could not be made has failed its requests; the next gets a new one.
    client.on("connectionError", () => {
      this.forget(client);
      void client.destroy().catch(() => undefined);
    });
    this.clients.push(client);
    return client;
  }

  private forget(client: Client): void {
    const index = this.clients.indexOf(client);
    if (index !== -1) this.clients.splice(index, 1);
  }

  /** Takes nothing new; closes once its open exchanges have ended. */
  private retire(client: Client): void {
    this.forget(client);
    this.retiring.add(client);
    void client
      .close()
      .catch(() => undefined)
      .finally(() => this.retiring.delete(client));
  }

  protected closeAll(): Promise<unknown> {
    this.ended = true;
    return Promise.all(
      [...this.clients, ...this.retiring]
        .filter((client) => !client.destroyed)
        .map((client) => client.close()),
    );
  }

  protected destroyAll(error: Error | null): Promise<unknown> {
    this.ended = true;
    return Promise.all([...this.clients, ...this.retiring].map((client) => client.destroy(error)));
  }
}

/**
 * A client whose connector tells it, once connected, how many exchanges it may run at once:
 * the peer's allowance on HTTP/2 (100 until its first SETTINGS say), one on HTTP/1.1; and
 * tells `onConnectionAnswered` whether the connection was made (on HTTP/2, once the peer's
 * SETTINGS have said how many exchanges it takes).
 */
function clientLearningItsProtocol(
  origin: string,
  options: Client.Options,
  learned: LearnedProtocol,
  onConnectionAnswered: (connected: boolean) => void,
  onGracefulGoAway: () => void,
): Client {
  const connector = options.connect as buildConnector.connector;
  const client: Client = new Client(origin, {
    ...options,
    pipelining: learned.streams,
    connect: (connectOptions, callback) =>
      connector(connectOptions, (error, socket) => {
        if (error || socket === null) {
          callback(error, socket);
          onConnectionAnswered(false);
          return;
        }
        const http2 = (socket as TLSSocket).alpnProtocol === "h2";
        if (!http2) {
          learned.protocol = "http/1.1";
          learned.streams = 1;
        } else if (learned.streams === 1) learned.streams = STREAMS_BEFORE_SETTINGS;
        client.pipelining = learned.streams;
        callback(null, socket);
        if (!http2) return onConnectionAnswered(true);
        followPeer(client, socket, learned, onConnectionAnswered, onGracefulGoAway);
        settingsOrNot(socket, learned, options.connectTimeout ?? 10_000, onConnectionAnswered);
      }),
  });
  return client;
}

/**
 * What the peer says on undici's session over `socket`: its SETTINGS_MAX_CONCURRENT_STREAMS
 * (the origin is known to speak h2 from the first SETTINGS on, so exchanges that waited for
 * the first connection are not given it beyond the peer's allowance), and its GOAWAY. undici 7
 * answers any GOAWAY by destroying the connection, which fails every stream open on it; a graceful one (NO_ERROR: the peer will finish the streams it has) is
 * taken from undici here and left to Node, which lets those streams end and then closes the
 * session, while the connection is retired (`onGracefulGoAway`). Any other GOAWAY still goes
 * to undici.
 */
function followPeer(
  client: Client,
  socket: object,
  learned: LearnedProtocol,
  onConnectionAnswered: (connected: boolean) => void,
  onGracefulGoAway: () => void,
): void {
  const session = undiciSession(socket);
  if (session === undefined) {
    learned.protocol = "h2";
    onConnectionAnswered(true);
    return;
  }
  session.on("remoteSettings", (settings: { maxConcurrentStreams?: number }) => {
    const allowed = settings.maxConcurrentStreams ?? STREAMS_BEFORE_SETTINGS;
    learned.streams = Math.max(1, Math.min(allowed, MOST_STREAMS_A_CONNECTION));
    learned.protocol = "h2";
    client.pipelining = learned.streams;
    onConnectionAnswered(true);
  });
  // A session that ends before its peer's SETTINGS has said nothing.
  session.once("close", () => onConnectionAnswered(false));
  const undiciGoAway = session.listeners("goaway");
  session.removeAllListeners("goaway");
  session.on("goaway", (errorCode: number, ...rest: unknown[]) => {
    if (errorCode === http2Constants.NGHTTP2_NO_ERROR) onGracefulGoAway();
    else for (const listener of undiciGoAway) listener.call(session, errorCode, ...rest);
  });
}

/**
 * A peer that connects over h2 but sends no SETTINGS within `timeoutMs` is taken at the
 * allowance assumed before SETTINGS, so exchanges waiting for the first connection are not
 * held by a peer that never speaks (each then meets its own first-byte timeout).
 */
function settingsOrNot(
  socket: NodeJS.EventEmitter,
  learned: LearnedProtocol,
  timeoutMs: number,
  onConnectionAnswered: (connected: boolean) => void,
): void {
  if (learned.protocol !== undefined) return;
  const timer = setTimeout(() => {
    if (learned.protocol !== undefined) return;
    learned.protocol = "h2";
    onConnectionAnswered(true);
  }, timeoutMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  undiciSession(socket)?.once("remoteSettings", () => clearTimeout(timer));
}

/**
 * undici keeps the HTTP/2 session it made over a socket on that socket, under a symbol of its
 * own (not exported). Read only to follow the peer's settings; should a later undici keep it
 * elsewhere, the connection keeps the allowance assumed before SETTINGS.
 */
function undiciSession(socket: object): NodeJS.EventEmitter | undefined {
  const symbol = Object.getOwnPropertySymbols(socket).find(
    (candidate) => candidate.description === "http2Session",
  );
  const session: unknown = symbol ? (socket as Record<symbol, unknown>)[symbol] : undefined;
  return session !== null && typeof session === "object" && "remoteSettings" in session
    ? (session as unknown as NodeJS.EventEmitter)
    : undefined;
}
