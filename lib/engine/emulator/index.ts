/**
 * The emulator of the local engine (what teams test their own clients against): scenarios that
 * script answers and faults per caller, a request log per caller, and the parts built on them.
 * `withEmulator` puts the scenario layer in front of a local backend and hangs the emulator on
 * it, so the HTTP layer finds it where it finds the backend.
 */
import type { Backend } from "@/lib/gemini/backend/contract";
import type { LocalBackend } from "@/lib/engine/local-backend";
import { emulatedBackend } from "./emulated-backend";
import { ReplayStore } from "./cassettes/replay-store";
import { EmulatorControls } from "./controls";
import { RequestLog, type RequestLogOptions } from "./request-log";
import { ScenarioRegistry } from "./scenario-registry";

export interface Emulator {
  scenarios: ScenarioRegistry;
  requestLog: RequestLog;
  /** Each caller's clock offset, file processing and quotas; `controls.now` is the engine's clock. */
  controls: EmulatorControls;
  /** Cassettes the local engine answers from (GENSTUDIO_REPLAY's and each caller's). */
  replay: ReplayStore;
}

export type EmulatedBackend = LocalBackend & { emulator: Emulator };

export interface EmulatorOptions {
  /** The instance's scenarios (GENSTUDIO_SCENARIOS), applying to every caller. */
  instanceScenarios?: unknown[];
  requestLog?: RequestLogOptions;
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  return {
    scenarios: new ScenarioRegistry(options.instanceScenarios ?? []),
    requestLog: new RequestLog(options.requestLog),
    controls: new EmulatorControls(),
    replay: new ReplayStore(),
  };
}

/** The local backend behind the emulator's scenario layer, carrying the emulator. */
export function withEmulator(local: LocalBackend, emulator: Emulator): EmulatedBackend {
  return Object.assign(emulatedBackend(local, emulator), { emulator });
}

/** The emulator of a backend: the local engine's, or null for the gateway. */
export function emulatorOf(backend: Backend): Emulator | null {
  return backend.mode === "local" && "emulator" in backend
    ? (backend as EmulatedBackend).emulator
    : null;
}
