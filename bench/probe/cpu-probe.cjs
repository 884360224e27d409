// Preloaded into the Paddock process by the benchmark (NODE_OPTIONS=--require ...): when
// PADDOCK_BENCH_PROFILE_DIR names a directory, each SIGWINCH toggles a measurement of the process. The
// first starts a CPU profile (V8's sampling profiler, 500 µs), a record of garbage-collection pauses and
// a histogram of event-loop delay; the next stops them and writes `paddock-<n>.cpuprofile` (open it in
// Chrome DevTools or read it with bench/profile-top.ts) and `paddock-<n>.json` (GC pauses by kind,
// event-loop delay percentiles) to that directory. With PADDOCK_BENCH_PROFILE_AT_START=1 as well, the
// first measurement starts as the process does (a cold start: the next SIGWINCH ends it). Without the
// directory it does nothing.
'use strict';
const { writeFileSync, renameSync } = require('node:fs');
const { join } = require('node:path');
const { Session } = require('node:inspector');
const { PerformanceObserver, monitorEventLoopDelay, constants } = require('node:perf_hooks');

const dir = process.env.PADDOCK_BENCH_PROFILE_DIR;
if (dir) {
  const KINDS = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  let n = 0;
  let running;
  const writeAtomic = (file, text) => {
    writeFileSync(file + '.tmp', text);
    renameSync(file + '.tmp', file);
  };
  const toggle = () => {
    if (!running) {
      const session = new Session();
      session.connect();
      const gc = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) gc.push({ kind: KINDS[e.detail?.kind] ?? String(e.detail?.kind), ms: e.duration });
      });
      observer.observe({ entryTypes: ['gc'] });
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start')));
      running = { session, gc, observer, delay, startedAt: Date.now() };
      return;
    }
    const { session, gc, observer, delay, startedAt } = running;
    running = undefined;
    const id = ++n;
    session.post('Profiler.stop', (err, result) => {
      observer.disconnect();
      delay.disable();
      const byKind = {};
      for (const { kind, ms } of gc) {
        const k = (byKind[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
        k.count++;
        k.totalMs += ms;
        k.maxMs = Math.max(k.maxMs, ms);
      }
      const ms = (ns) => ns / 1e6;
      const summary = {
        seconds: (Date.now() - startedAt) / 1000,
        gc: byKind,
        gcPausesOver20ms: gc.filter((g) => g.ms > 20).map((g) => `${g.kind} ${g.ms.toFixed(1)}`),
        eventLoopDelayMs: { p50: ms(delay.percentile(50)), p90: ms(delay.percentile(90)), p99: ms(delay.percentile(99)), max: ms(delay.max), mean: ms(delay.mean) },
      };
      writeAtomic(join(dir, `paddock-${id}.json`), JSON.stringify(summary, null, 1));
      if (!err) writeAtomic(join(dir, `paddock-${id}.cpuprofile`), JSON.stringify(result.profile));
      session.disconnect();
    });
  };
  process.on('SIGWINCH', toggle);
  if (process.env.PADDOCK_BENCH_PROFILE_AT_START === '1') toggle();
}
