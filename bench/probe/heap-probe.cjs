// Preloaded into the Paddock process by the benchmark (NODE_OPTIONS=--expose-gc --require ...): on
// SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() as JSON to the file named
// by PADDOCK_BENCH_HEAP_FILE. When a file `<that file>.snapshot` exists, it names where to write a heap
// snapshot: the probe writes it (after the sample) and removes the request. Nothing else changes in the
// process; without the variable it does nothing.
'use strict';
const { existsSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { writeHeapSnapshot } = require('node:v8');

const out = process.env.PADDOCK_BENCH_HEAP_FILE;
if (out) {
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      globalThis.gc();
    }
    const sample = { ...process.memoryUsage(), gc: typeof globalThis.gc === 'function', at: Date.now() };
    const request = out + '.snapshot';
    if (existsSync(request)) {
      const path = readFileSync(request, 'utf8').trim();
      rmSync(request);
      writeHeapSnapshot(path);
      sample.snapshot = path;
    }
    writeFileSync(out + '.tmp', JSON.stringify(sample));
    renameSync(out + '.tmp', out);
  });
}
