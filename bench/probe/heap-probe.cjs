// Preloaded into the Paddock process by the benchmark (NODE_OPTIONS=--expose-gc --require ...): on
// SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() as JSON to the file named
// by PADDOCK_BENCH_HEAP_FILE. Nothing else changes in the process; without the variable it does nothing.
'use strict';
const { renameSync, writeFileSync } = require('node:fs');

const out = process.env.PADDOCK_BENCH_HEAP_FILE;
if (out) {
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      globalThis.gc();
    }
    const sample = { ...process.memoryUsage(), gc: typeof globalThis.gc === 'function', at: Date.now() };
    writeFileSync(out + '.tmp', JSON.stringify(sample));
    renameSync(out + '.tmp', out);
  });
}
