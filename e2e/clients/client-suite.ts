/**
 * The client conformance suite's frame: each real client (an SDK nobody here wrote) runs the
 * same kinds of cases, unchanged but for its base URL and key, against both modes: the local
 * engine, and a gateway in front of a local engine. A client's spec lists its cases once;
 * `defineClientSuite` registers each case for both modes, so adding a case (batches, say) is
 * one entry in that list. A case that cannot pass until another piece of work lands stays
 * listed with `skip`: one line naming the missing feature.
 */
import { test } from "@playwright/test";
import { DEVELOPMENT_KEY, GATEWAY_KEYS, gatewayServer, localServer } from "../support/servers";

export interface ClientTarget {
  mode: "local engine" | "gateway";
  baseUrl: string;
  apiKey: string;
}

export interface ClientCase {
  name: string;
  /** Why the case cannot pass yet (the missing feature and who builds it); the case is skipped. */
  skip?: string;
  run(target: ClientTarget): Promise<void>;
}

/** Both modes. The gateway key is the suite's own, so its request rate is not shared. */
export const CLIENT_TARGETS: ClientTarget[] = [
  { mode: "local engine", baseUrl: localServer.baseUrl, apiKey: DEVELOPMENT_KEY },
  { mode: "gateway", baseUrl: gatewayServer.baseUrl, apiKey: GATEWAY_KEYS.clients },
];

/** The title prefix the matrix reporter reads: `client <name> [<mode>]`. */
export function clientSuiteTitle(client: string, target: ClientTarget): string {
  return `client ${client} [${target.mode}]`;
}

export function defineClientSuite(client: string, cases: ClientCase[]): void {
  for (const target of CLIENT_TARGETS) {
    test.describe(clientSuiteTitle(client, target), () => {
      for (const item of cases) {
        test(item.name, async () => {
          test.skip(item.skip !== undefined, item.skip);
          await item.run(target);
        });
      }
    });
  }
}
