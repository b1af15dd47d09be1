// Preloaded into a server by bench/promise-hooks.mjs; the app never loads it. On the main thread
// of the Next process: notes each AsyncLocalStorage as it is first entered (where from), and
// counts the async resources made (promises, ticks, timers) by type. On SIGUSR2 it writes both
// to GENSTUDIO_HOOKS_PROBE as JSON. With GENSTUDIO_HOOKS_OFF=1 (an experiment, never a way to
// run the app) an AsyncLocalStorage is marked entered without turning Node's hooks on, so
// stores no longer follow awaits: it bounds what the hooks cost, it does not serve correctly.
"use strict";
const file = process.env.GENSTUDIO_HOOKS_PROBE;
const { isMainThread } = require("node:worker_threads");
const isServer = process.argv.some((argument) => /next[\\/]dist[\\/]bin[\\/]next$/.test(argument));
if (file && isMainThread && isServer) {
  const fs = require("node:fs");
  const { AsyncLocalStorage, createHook } = require("node:async_hooks");
  const entered = [];
  const enable = AsyncLocalStorage.prototype._enable;
  const hooksOff = process.env.GENSTUDIO_HOOKS_OFF === "1";
  AsyncLocalStorage.prototype._enable = function () {
    if (!this.enabled) {
      const from = new Error().stack
        .split("\n")
        .slice(2, 5)
        .map((line) => line.trim());
      entered.push({ storage: this, from });
    }
    if (hooksOff) this.enabled = true;
    else enable.call(this);
  };
  const counts = {};
  if (process.env.GENSTUDIO_HOOKS_COUNT === "1")
    createHook({
      init(_id, type) {
        counts[type] = (counts[type] ?? 0) + 1;
      },
    }).enable();
  process.on("SIGUSR2", () => {
    const storages = entered.map(({ storage, from }) => ({ enabled: storage.enabled, from }));
    fs.writeFileSync(file, JSON.stringify({ storages, counts }));
  });
}
