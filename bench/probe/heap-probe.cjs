// Preloaded into the Paddock process by the benchmark (NODE_OPTIONS=--expose-gc --require ...): on
// SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() as JSON to the file named
// by PADDOCK_BENCH_HEAP_FILE, with `codeBytes`: the part of the heap used that holds compiled JavaScript
// (V8's code and trusted spaces: bytecode, machine code and their tables), made as functions first run.
// When a file `<that file>.snapshot` exists, it names where to write a heap snapshot: the probe writes it
// (after the sample) and removes the request. Nothing else changes in the process; without the variable
// it does nothing.
'use strict';
const { existsSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { getHeapSpaceStatistics, writeHeapSnapshot } = require('node:v8');

const out = process.env.PADDOCK_BENCH_HEAP_FILE;
if (out) {
  process.on('SIGUSR2', () => {
    if (typeof globalThis.gc === 'function') {
      globalThis.gc();
      globalThis.gc();
    }
    const codeBytes = getHeapSpaceStatistics()
      .filter((s) => /code|trusted/.test(s.space_name))
      .reduce((sum, s) => sum + s.space_used_size, 0);
    const sample = { ...process.memoryUsage(), codeBytes, gc: typeof globalThis.gc === 'function', at: Date.now() };
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
