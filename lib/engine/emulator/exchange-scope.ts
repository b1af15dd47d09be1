/**
 * What the HTTP layer knows of the request being served, for the emulator's parts that run
 * below it (scenario matching on headers, the request log's notes): carried with the request's
 * async work. One instance per process, on globalThis, because the server build may load this
 * module twice (the backend is made by the start-up bundle, requests are served by others).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What the engine side adds to a request's log entry. */
export interface ExchangeNotes {
  model?: string;
  scenarioId?: string;
  scenarioName?: string;
  /** The recorded exchange that answered, when a cassette did. */
  replayedFrom?: string;
}

export interface ExchangeScope {
  ownerId: string;
  headers: Headers;
  notes: ExchangeNotes;
}

const KEY = Symbol.for("genstudio.emulator.exchangeScope");
const holder = globalThis as typeof globalThis & {
  [KEY]?: AsyncLocalStorage<ExchangeScope>;
};

export const exchangeScope: AsyncLocalStorage<ExchangeScope> = (holder[KEY] ??=
  new AsyncLocalStorage<ExchangeScope>());

/** The scope of the request being served, if any (a studio chat turn has none). */
export function currentExchange(): ExchangeScope | undefined {
  return exchangeScope.getStore();
}
