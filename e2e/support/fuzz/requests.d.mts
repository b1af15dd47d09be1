/** Types of requests.mjs (one fast-check arbitrary per endpoint). */
import type { Arbitrary } from "fast-check";
import type { FuzzRequest } from "./client.mjs";
import type { FuzzWorld } from "./world.mjs";
export type { FuzzWorld };
export const HOSTILE_STRINGS: string[];
export function endpointArbitraries(world: FuzzWorld): Arbitrary<FuzzRequest>[];
export function requestArbitrary(world: FuzzWorld): Arbitrary<FuzzRequest>;
