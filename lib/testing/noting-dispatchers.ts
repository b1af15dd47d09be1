/** Upstream dispatchers for unit tests that note which of the two carried each exchange. */
import { Agent, type Dispatcher } from "undici";
import type { UpstreamDispatchers } from "@/lib/server/upstream/upstream-dispatcher";

export interface NotedExchanges {
  /** `METHOD /path?query` of each exchange, by the dispatcher that carried it. */
  held: string[];
  unary: string[];
}

/** Two real undici Agents, as `UpstreamClient` takes them, noting each exchange they carry. */
export function notingDispatchers(): { dispatchers: UpstreamDispatchers; noted: NotedExchanges } {
  const noted: NotedExchanges = { held: [], unary: [] };
  const noting = (kind: keyof NotedExchanges): Dispatcher =>
    new Agent().compose((dispatch) => (options, handler) => {
      noted[kind].push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
  return { dispatchers: { held: noting("held"), unary: noting("unary") }, noted };
}
