// What stalls a Node process, as it happens: each garbage-collection pause and each time the event loop
// could not run a timer when it was due. Shared by the stall probe (preloaded into Paddock) and the
// benchmark process itself (its own stalls are the measuring client's), so both are timed the same way.
// Times are wall-clock milliseconds (performance.timeOrigin + the monotonic clock), comparable across
// the processes of one machine.
'use strict';
const { PerformanceObserver, performance, constants } = require('node:perf_hooks');

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major GC',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor GC',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental GC',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-callback GC',
};

/**
 * Calls `onStall({ kind, start, ms })` for every GC pause of at least `minGcMs` and every event-loop
 * delay of at least `minLoopMs` (kind 'event loop blocked': a timer due every `intervalMs` ran that much
 * late; a GC pause long enough shows as both). Returns the function that stops it. The timer is unref'd.
 */
function monitorStalls(onStall, { intervalMs = 5, minLoopMs = 5, minGcMs = 1 } = {}) {
  const origin = performance.timeOrigin;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration >= minGcMs) onStall({ kind: GC_KINDS[e.detail?.kind] ?? 'GC', start: origin + e.startTime, ms: e.duration });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let due = performance.now() + intervalMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - due;
    if (late >= minLoopMs) onStall({ kind: 'event loop blocked', start: origin + due, ms: late });
    due = now + intervalMs;
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    observer.disconnect();
  };
}

module.exports = { monitorStalls };
