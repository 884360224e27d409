import type { KubeClient } from '../kube/client';
import { silentLogger } from '../kube/log';
import { EventBatch, EventRecorder } from './events';
import type { KubeObject } from '../kube/types';
import { tenant as tenantNamed } from '../testing/tenants';

describe('EventBatch', () => {
  const tenant: KubeObject = tenantNamed('oil', {}, undefined, { uid: 'u1' });

  function recorded(fill: (b: EventBatch) => void) {
    const events: [string, string, string][] = [];
    const recorder = { record: (_o: KubeObject, type: string, reason: string, message: string) => events.push([type, reason, message]) } as unknown as EventRecorder;
    const batch = new EventBatch();
    fill(batch);
    batch.flush(recorder, tenant);
    return events;
  }

  it('records one Event per reason for a whole pass, listing the first few changes', () => {
    const events = recorded((b) => {
      for (let i = 0; i < 7; i++) b.add('Normal', 'Created', `created ResourceQuota oil-${i}/paddock-quota-0`);
      b.add('Normal', 'Repaired', 'repaired NetworkPolicy oil-a/paddock-isolation');
    });
    expect(events).toEqual([
      ['Normal', 'Created', expect.stringMatching(/^7 changes: created ResourceQuota oil-0\/paddock-quota-0; .* \(and 2 more\)$/)],
      ['Normal', 'Repaired', 'repaired NetworkPolicy oil-a/paddock-isolation'],
    ]);
  });

  it('records nothing for a pass that changed nothing', () => {
    expect(recorded(() => {})).toEqual([]);
  });
});

describe('EventRecorder', () => {
  it('stamps Events with metav1.Time: RFC 3339 with whole seconds', async () => {
    const sent: any[] = [];
    const client = { create: async (_path: string, body: unknown) => { sent.push(body); return body; } } as unknown as KubeClient;
    new EventRecorder(client, 'paddock', 'test', silentLogger).record(
      tenantNamed('oil', {}, undefined, { uid: 'u1' }), 'Normal', 'Created', 'created x');
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(1);
    expect(sent[0].firstTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(sent[0].lastTimestamp).toBe(sent[0].firstTimestamp);
  });
});
