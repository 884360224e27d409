import { Counter, Gauge } from 'prom-client';
import { registry } from './registry';

/** 1 while this replica holds the Lease `name`, else 0. */
export const leaderElectionIsLeader = new Gauge({
  name: 'paddock_leader_election_is_leader',
  help: 'Whether this replica currently leads (1) or not (0).',
  labelNames: ['name'] as const,
  registers: [registry],
});

export const leaderElectionTransitions = new Counter({
  name: 'paddock_leader_election_transitions_total',
  help: 'Times this replica started or stopped leading.',
  labelNames: ['name', 'event'] as const,
  registers: [registry],
});
