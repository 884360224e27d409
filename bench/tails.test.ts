import { describeCause, NAMED_KEPT_PER_TARGET, summarizeTails, type Sample, type SampleOf, type Stall } from './tails';

/** A target's samples: nine of 1 ms, one every 10 ms from t = 0, then `slow` (sent at t = 1000). */
function targetWith(of: SampleOf, slow: Omit<Sample, keyof SampleOf | 'start'>): Sample[] {
  const fast = Array.from({ length: 9 }, (_, i): Sample => ({ ...of, start: i * 10, ms: 1 }));
  return [...fast, { ...of, start: 1000, ...slow }];
}

const paddock: SampleOf = { scenario: 'owner list at 1k', target: 'Paddock direct', role: 'paddock' };
const baseline: SampleOf = { scenario: 'owner list at 1k', target: 'kube-apiserver namespaces', role: 'baseline' };
const idle = { cpuMs: 1, waitMs: 0 };
const tailOf = ({ scenario, target }: SampleOf) => ({ scenario, target });

/** A major GC over the whole of the slow sample (1000–1041), in whichever process's stalls it is given. */
const gc: Stall[] = [{ kind: 'major GC', start: 1000, ms: 41 }];

describe('a tail\'s cause', () => {
  it('is only a sample over 10× its target\'s median', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 10 }), { stalls: gc, reviews: [] }, []);
    expect(r).toMatchObject({ factor: 10, samples: 10, count: 0, explained: 0, tails: [] });
  });

  it('is Paddock\'s run-queue wait before a GC of Paddock that overlaps it', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, sched: { client: idle, paddock: { cpuMs: 2, waitMs: 30 } } }), { stalls: gc, reviews: [] }, []);
    expect(r.tails).toEqual([{ ...tailOf(paddock), ms: 41, median: 1, cause: 'Paddock\'s event loop waited 30 ms for a CPU (the machine\'s other processes ran)' }]);
    expect(r.byCause).toEqual({ 'Paddock\'s event loop waited for a CPU (the machine\'s other processes ran)': 1 });
  });

  it('is the waits of the threads it crossed together, when none is enough alone', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, sched: { client: { cpuMs: 1, waitMs: 11 }, paddock: { cpuMs: 2, waitMs: 10 } } }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('the threads it crossed waited for a CPU, together: Paddock\'s event loop 10 ms, the benchmark client 11 ms (the machine\'s other processes ran)');
    // Paddock's wait is not the sample's when Paddock did not serve it.
    const b = summarizeTails(targetWith(baseline, { ms: 41, sched: { client: { cpuMs: 1, waitMs: 11 }, paddock: { cpuMs: 2, waitMs: 10 } } }), { stalls: [], reviews: [] }, []);
    expect(b.tails[0].cause).toBeUndefined();
  });

  it('is a proxy busy over a watch delivery, read off the CPU timelines, when kube-apiserver\'s own watch was on time', () => {
    const of: SampleOf = { scenario: 'capsule watch', target: 'capsule-proxy namespaces, 1000 watchers', role: 'baseline' };
    // Over a 1 ms delivery, usually: kube-apiserver 0.5 ms, capsule-proxy 0.2, the client 0.1 (rates per ms).
    const usual = { kubeApiserver: 0.5, proxy: { name: 'capsule-proxy', cpuMs: 0.2 }, client: 0.1 };
    const fast = Array.from({ length: 9 }, (_, i): Sample => ({ ...of, start: i * 10, ms: 1, upstreamMs: 0.5, cpu: usual }));
    const late: Sample = { ...of, start: 1000, ms: 41, upstreamMs: 0.5, cpu: { kubeApiserver: 20.5, proxy: { name: 'capsule-proxy', cpuMs: 60 }, client: 4.1 } };
    const r = summarizeTails([...fast, late], { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('capsule-proxy was busy: its threads ran 60 ms over the sample, 8.2 ms at its target\'s median rate over as long (other work of its own: its garbage collector, other clients)');
    // Each at its usual rate over the longer delivery: nobody busier than usual, unexplained, with what each spent.
    const steady = summarizeTails([...fast, { ...late, cpu: { ...late.cpu, proxy: { name: 'capsule-proxy', cpuMs: 8.2 } } }], { stalls: [], reviews: [] }, []);
    expect(describeCause(steady.tails[0])).toBe('unexplained (CPU over it: kube-apiserver 20.5 ms, capsule-proxy 8.2 ms, the client 4.1 ms)');
  });

  it('is the client\'s run-queue wait before a GC of the client', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, sched: { client: { cpuMs: 1, waitMs: 25 }, paddock: idle } }), { stalls: [], reviews: [] }, gc);
    expect(r.tails[0].cause).toBe('the benchmark client waited 25 ms for a CPU (the machine\'s other processes ran)');
  });

  it('needs a wait of at least half of the time beyond the median', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, sched: { client: idle, paddock: { cpuMs: 2, waitMs: 19 } } }), { stalls: gc, reviews: [] }, []);
    expect(r.tails[0].cause).toBe('Paddock: major GC');
  });

  it('is never Paddock\'s for a sample Paddock did not serve', () => {
    const r = summarizeTails(targetWith(baseline, { ms: 41, sched: { client: idle, paddock: { cpuMs: 2, waitMs: 30 } } }), { stalls: gc, reviews: [] }, []);
    expect(r.tails).toEqual([{ ...tailOf(baseline), ms: 41, median: 1, clientLoop: idle }]);
    expect(r).toMatchObject({ count: 1, explained: 0, byCause: { unexplained: 1 } });
    expect(describeCause(r.tails[0])).toBe('unexplained (the client\'s main thread on a CPU 1 ms, waiting 0 ms)');
  });

  it('is the client\'s stall for a sample Paddock did not serve', () => {
    const r = summarizeTails(targetWith(baseline, { ms: 41 }), { stalls: gc, reviews: [] }, [{ kind: 'event loop blocked', start: 1010, ms: 25 }]);
    expect(r.tails[0].cause).toBe('benchmark client: event loop blocked (not GC)');
  });

  it('is a review Paddock waited for: received and answered inside the sample, before a stall of Paddock', () => {
    const review = { resource: 'subjectaccessreviews', start: 1002, end: 1035 };
    const r = summarizeTails(targetWith(paddock, { ms: 41 }), { stalls: gc, reviews: [review] }, []);
    expect(r.tails[0].cause).toBe('Paddock waited for kube-apiserver to answer a SubjectAccessReview, 33 ms (its answer for the caller had expired, or was never asked)');
  });

  it('is not a review that ended after the sample (a renewal in the background) or was too short', () => {
    for (const review of [{ resource: 'subjectaccessreviews', start: 1002, end: 1060 }, { resource: 'tokenreviews', start: 1002, end: 1010 }]) {
      const r = summarizeTails(targetWith(paddock, { ms: 41 }), { stalls: [], reviews: [review] }, []);
      expect(r.tails[0].cause).toBeUndefined();
    }
  });

  it('is never a review of Paddock\'s for a sample Paddock did not serve', () => {
    const r = summarizeTails(targetWith(baseline, { ms: 41 }), { stalls: [], reviews: [{ resource: 'tokenreviews', start: 1002, end: 1035 }] }, []);
    expect(r.tails[0].cause).toBeUndefined();
  });

  it('is kube-apiserver\'s own watch when it delivered the change late too, before a stall', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, upstreamMs: 38 }), { stalls: gc, reviews: [] }, []);
    expect(r.tails[0].cause).toBe('kube-apiserver: its own watch delivered the change late too');
  });

  it('comes after the run-queue waits when kube-apiserver\'s watch was late too', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, upstreamMs: 38, sched: { client: { cpuMs: 1, waitMs: 30 } } }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('the benchmark client waited 30 ms for a CPU (the machine\'s other processes ran)');
  });

  it('is unexplained, with what Paddock\'s loop did, when nothing recorded accounts for it', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, sched: { client: idle, paddock: { cpuMs: 3.14159, waitMs: 2 } } }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0]).toEqual({ ...tailOf(paddock), ms: 41, median: 1, paddockLoop: { cpuMs: 3.14, waitMs: 2 }, clientLoop: idle });
    expect(describeCause(r.tails[0])).toBe('unexplained (Paddock\'s event loop on a CPU 3.14 ms, waiting 2 ms; the client\'s main thread on a CPU 1 ms, waiting 0 ms)');
    expect(r.byTarget).toEqual([{ scenario: paddock.scenario, target: paddock.target, median: 1, samples: 10, count: 1, explained: 0 }]);
  });

  it('is kube-apiserver\'s threads\' run-queue wait, summed, for a request through it', () => {
    const r = summarizeTails(targetWith(baseline, { ms: 41, sched: { client: idle, kubeApiserver: { cpuMs: 3, waitMs: 24 } } }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('kube-apiserver\'s threads (summed) waited 24 ms for a CPU (the machine\'s other processes ran)');
  });

  it('is kube-apiserver busy with other work when its threads ran at least half the excess beyond its median sample, after every stall', () => {
    const usual = (of: SampleOf) => targetWith(of, { ms: 41, sched: { client: idle, kubeApiserver: { cpuMs: 22, waitMs: 1 } } })
      .map((s, i) => (i < 9 ? { ...s, sched: { client: idle, kubeApiserver: { cpuMs: 1.5, waitMs: 0 } } } : s));
    const r = summarizeTails(usual(baseline), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('kube-apiserver was busy: its threads ran 22 ms over the sample, 1.5 ms over its target\'s median one (other work of its own: its garbage collector, other clients)');
    expect(r.byCause).toEqual({ 'kube-apiserver was busy (other work of its own: its garbage collector, other clients)': 1 });
    expect(summarizeTails(usual(baseline), { stalls: [], reviews: [] }, gc).tails[0].cause).toBe('benchmark client: major GC');
    // 19 ms beyond its usual is less than half of the 40 ms beyond the median.
    const lighter = usual(baseline).map((s, i) => (i === 9 ? { ...s, sched: { client: idle, kubeApiserver: { cpuMs: 20.5, waitMs: 1 } } } : s));
    expect(summarizeTails(lighter, { stalls: [], reviews: [] }, []).tails[0]).toEqual({ ...tailOf(baseline), ms: 41, median: 1, kubeApiserverThreads: { cpuMs: 20.5, waitMs: 1 }, clientLoop: idle });
  });

  it('is unexplained, with what kube-apiserver\'s threads did, when they were read and account for nothing', () => {
    const r = summarizeTails(targetWith(paddock, { ms: 41, sched: { client: idle, paddock: { cpuMs: 1, waitMs: 0 }, kubeApiserver: { cpuMs: 2.5, waitMs: 0.5 } } }), { stalls: [], reviews: [] }, []);
    expect(describeCause(r.tails[0])).toBe('unexplained (Paddock\'s event loop on a CPU 1 ms, waiting 0 ms; kube-apiserver\'s threads on a CPU 2.5 ms, waiting 0.5 ms; the client\'s main thread on a CPU 1 ms, waiting 0 ms)');
  });

  const viaProxy: SampleOf = { scenario: 'capsule owner list at 1k', target: 'capsule-proxy namespaces', role: 'baseline' };
  const proxy = (cpuMs: number, waitMs: number) => ({ name: 'capsule-proxy', threads: { cpuMs, waitMs } });

  it('is the proxy\'s threads\' run-queue wait, summed, for a request to it, after kube-apiserver\'s', () => {
    const r = summarizeTails(targetWith(viaProxy, { ms: 41, sched: { client: idle, kubeApiserver: idle, proxy: proxy(3, 24) } }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('capsule-proxy\'s threads (summed) waited 24 ms for a CPU (the machine\'s other processes ran)');
    const both = summarizeTails(targetWith(viaProxy, { ms: 41, sched: { client: idle, kubeApiserver: { cpuMs: 1, waitMs: 30 }, proxy: proxy(3, 24) } }), { stalls: [], reviews: [] }, []);
    expect(both.tails[0].cause).toBe('kube-apiserver\'s threads (summed) waited 30 ms for a CPU (the machine\'s other processes ran)');
  });

  it('is a watch-cache wait of at least half the excess, after the run-queue waits and before a stall or kube-apiserver busy', () => {
    const wait = { resource: 'namespaces', atLeastMs: 50, atMostMs: 100 };
    const busy = { client: idle, kubeApiserver: { cpuMs: 60, waitMs: 1 }, proxy: proxy(2, 0) };
    const r = summarizeTails(targetWith(viaProxy, { ms: 80, cacheWait: wait, sched: busy }), { stalls: [], reviews: [] }, gc);
    expect(r.tails[0].cause).toBe('kube-apiserver: the list waited 50–100 ms for its watch cache of namespaces to catch up with etcd (a consistent list: the cache asks etcd for progress at most every 100 ms)');
    expect(r.byCause).toEqual({ 'kube-apiserver: the list waited for its watch cache to catch up with etcd (a consistent list: the cache asks etcd for progress at most every 100 ms)': 1 });
    const waited = summarizeTails(targetWith(viaProxy, { ms: 80, cacheWait: wait, sched: { ...busy, client: { cpuMs: 1, waitMs: 60 } } }), { stalls: [], reviews: [] }, []);
    expect(waited.tails[0].cause).toBe('the benchmark client waited 60 ms for a CPU (the machine\'s other processes ran)');
    // 25 ms at least is less than half of the 79 ms beyond the median: the next cause.
    const shorter = summarizeTails(targetWith(viaProxy, { ms: 80, cacheWait: { ...wait, atLeastMs: 25, atMostMs: 50 }, sched: busy }), { stalls: [], reviews: [] }, gc);
    expect(shorter.tails[0].cause).toBe('benchmark client: major GC');
  });

  it('is never the machine\'s stall time, which an unexplained tail shows beside its threads', () => {
    const r = summarizeTails(targetWith(viaProxy, { ms: 41, sched: { client: idle, kubeApiserver: idle, pressure: { ioMs: 38.123, memoryMs: 0 } } }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBeUndefined();
    expect(describeCause(r.tails[0])).toBe('unexplained (kube-apiserver\'s threads on a CPU 1 ms, waiting 0 ms; the client\'s main thread on a CPU 1 ms, waiting 0 ms; the machine stalled on I/O 38.1 ms, on memory 0 ms)');
  });

  it('is the proxy busy with other work when its threads ran at least half the excess beyond its median sample, after kube-apiserver', () => {
    const usual = (slow: { cpuMs: number; waitMs: number }) => targetWith(viaProxy, { ms: 41, sched: { client: idle, kubeApiserver: idle, proxy: proxy(slow.cpuMs, slow.waitMs) } })
      .map((s, i) => (i < 9 ? { ...s, sched: { client: idle, kubeApiserver: idle, proxy: proxy(2, 0) } } : s));
    const r = summarizeTails(usual({ cpuMs: 30, waitMs: 1 }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('capsule-proxy was busy: its threads ran 30 ms over the sample, 2 ms over its target\'s median one (other work of its own: its garbage collector, other clients)');
    // 18 ms beyond its usual is less than half of the 40 ms beyond the median: unexplained, with what its threads did.
    const lighter = summarizeTails(usual({ cpuMs: 20, waitMs: 1 }), { stalls: [], reviews: [] }, []);
    expect(lighter.tails[0]).toEqual({ ...tailOf(viaProxy), ms: 41, median: 1, kubeApiserverThreads: idle, proxyThreads: { name: 'capsule-proxy', cpuMs: 20, waitMs: 1 }, clientLoop: idle });
    expect(describeCause(lighter.tails[0])).toBe('unexplained (kube-apiserver\'s threads on a CPU 1 ms, waiting 0 ms; capsule-proxy\'s threads on a CPU 20 ms, waiting 1 ms; the client\'s main thread on a CPU 1 ms, waiting 0 ms)');
  });

  it('is the client busy between its stall monitor\'s ticks when its main thread ran at least half the excess beyond its median sample, last', () => {
    const usual = (slow: { cpuMs: number; waitMs: number }, apiserver = idle) => targetWith(viaProxy, { ms: 11, sched: { client: slow, kubeApiserver: apiserver, proxy: proxy(2, 0) } })
      .map((s, i) => (i < 9 ? { ...s, sched: { client: idle, kubeApiserver: idle, proxy: proxy(2, 0) } } : s));
    const r = summarizeTails(usual({ cpuMs: 7, waitMs: 0 }), { stalls: [], reviews: [] }, []);
    expect(r.tails[0].cause).toBe('the benchmark client was busy: its main thread ran 7 ms over the sample, 1 ms over its target\'s median one (work of its own between its stall monitor\'s ticks: a timer, a short GC)');
    expect(summarizeTails(usual({ cpuMs: 7, waitMs: 0 }, { cpuMs: 8, waitMs: 0 }), { stalls: [], reviews: [] }, []).tails[0].cause).toMatch(/^kube-apiserver was busy/);
    // 4 ms beyond its usual is less than half of the 10 ms beyond the median.
    expect(summarizeTails(usual({ cpuMs: 5, waitMs: 0 }), { stalls: [], reviews: [] }, []).tails[0].cause).toBeUndefined();
  });
});

describe('the tails kept', () => {
  it(`are every unexplained one and the slowest ${NAMED_KEPT_PER_TARGET} named ones of each target, slowest first`, () => {
    // Target A: 40 fast samples, then 20 tails named by a GC of Paddock's each. Target B: one unexplained tail.
    const a: SampleOf = { scenario: 'watch', target: 'A', role: 'paddock' };
    const many: Sample[] = [
      ...Array.from({ length: 40 }, (_, i): Sample => ({ ...a, start: i, ms: 1 })),
      ...Array.from({ length: 20 }, (_, i): Sample => ({ ...a, start: 1000 + i * 100, ms: 50 + i })),
    ];
    const stalls: Stall[] = Array.from({ length: 20 }, (_, i) => ({ kind: 'major GC', start: 1000 + i * 100, ms: 50 + i }));
    const r = summarizeTails([...many, ...targetWith(paddock, { ms: 12, sched: { client: idle, paddock: idle } })], { stalls: stalls, reviews: [] }, []);
    expect(r.count).toBe(21);
    expect(r.tails.map((t) => [t.target, t.ms])).toEqual([...[69, 68, 67, 66, 65].map((ms) => ['A', ms]), ['Paddock direct', 12]]);
  });
});
