// Preloaded into the Paddock process by the benchmark (NODE_OPTIONS=--require ...): when
// PADDOCK_BENCH_STALLS_FILE names a file, every GC pause and event-loop stall of the process (see
// stall-monitor.cjs) is appended to it as one JSON line, `{"kind","start","ms"}`, at most a second after
// it happened (and at exit). The benchmark reads it to name the cause of its slowest requests (tails.ts).
'use strict';
const { appendFileSync } = require('node:fs');
const { monitorStalls } = require('./stall-monitor.cjs');

const file = process.env.PADDOCK_BENCH_STALLS_FILE;
if (file) {
  let pending = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending.map((s) => JSON.stringify(s)).join('\n') + '\n';
    pending = [];
    try {
      appendFileSync(file, lines);
    } catch {
      // The benchmark's directory is gone (it is tearing down): nothing left to tell.
    }
  };
  monitorStalls((s) => pending.push(s));
  setInterval(flush, 1000).unref();
  process.on('exit', flush);
}
