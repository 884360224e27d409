import { createHash, randomBytes } from 'node:crypto';
import type { KubeClient } from '../kube/client';
import type { Writer } from './writer';
import type { Logger } from '../log/logger';
import type { KubeObject } from '../kube/types';
import { metaTime } from '../kube/time';

export type EventType = 'Normal' | 'Warning';

/** Namespace of Events about cluster-scoped objects, as kube-apiserver's own components do. */
const CLUSTER_SCOPED_EVENT_NAMESPACE = 'default';
/** The same event about the same object is not repeated within this window. */
const REPEAT_WINDOW_MS = 10 * 60_000;
const MAX_REMEMBERED = 10_000;

/**
 * Records core/v1 Events on Tenants (`kubectl describe tenant` shows them). Fire-and-forget: a failed
 * event is logged, never retried, and never fails a reconcile. Identical events within ten minutes are
 * dropped, so a failure that repeats every retry does not flood the API.
 */
export class EventRecorder {
  readonly #recent = new Map<string, number>();

  /** With `writer`, an Event is a write like the others: fenced, and cancelled with the pass recording it. */
  constructor(readonly client: KubeClient, readonly component: string, readonly instance: string, readonly log: Logger, readonly writer?: Writer) {}

  record(obj: KubeObject, type: EventType, reason: string, message: string): void {
    try {
      this.writer?.assertMayWrite();
    } catch (err) {
      this.log.debug('event not recorded: no write may be sent now', { reason, object: obj.metadata.name, err });
      return;
    }
    const opts = this.writer?.writeOptions();
    // A digest, not the text: up to MAX_REMEMBERED keys are held, and messages list objects. 128 bits of
    // it (22 characters) and the time in whole seconds (a small integer, not a boxed number): about 60 B
    // per Event remembered instead of 100.
    const key = createHash('sha256').update(`${obj.metadata.uid}\u0000${reason}\u0000${message}`).digest().toString('base64url', 0, 16);
    const now = Date.now();
    const seconds = Math.floor(now / 1000);
    const last = this.#recent.get(key);
    if (last !== undefined && (seconds - last) * 1000 < REPEAT_WINDOW_MS) return;
    if (this.#recent.size >= MAX_REMEMBERED) this.#recent.clear();
    this.#recent.set(key, seconds);
    const namespace = obj.metadata.namespace ?? CLUSTER_SCOPED_EVENT_NAMESPACE;
    const at = metaTime(now);
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${obj.metadata.name}.${randomBytes(8).toString('hex')}`, namespace },
      involvedObject: { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace, uid: obj.metadata.uid },
      reason,
      message: message.slice(0, 1024),
      type,
      source: { component: this.component },
      reportingComponent: this.component,
      reportingInstance: this.instance,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    };
    this.client.create(`/api/v1/namespaces/${namespace}/events`, event, opts).catch((err: unknown) => {
      this.log.warn('recording an event failed', { reason, object: obj.metadata.name, err });
    });
  }
}

const MAX_LISTED = 5;

/**
 * The Events of one reconcile pass, recorded as one Event per reason when the pass ends ("Created: 12
 * objects: ..."), so provisioning a tenant costs a handful of Events rather than one per object and
 * Events do not crowd out real writes under the client rate limit.
 */
export class EventBatch {
  readonly #byReason = new Map<string, { type: EventType; messages: string[] }>();

  add(type: EventType, reason: string, message: string): void {
    let entry = this.#byReason.get(reason);
    if (!entry) this.#byReason.set(reason, (entry = { type, messages: [] }));
    entry.messages.push(message);
  }

  flush(recorder: EventRecorder, obj: KubeObject): void {
    for (const [reason, { type, messages }] of this.#byReason) {
      const listed = messages.slice(0, MAX_LISTED).join('; ');
      const more = messages.length > MAX_LISTED ? ` (and ${messages.length - MAX_LISTED} more)` : '';
      recorder.record(obj, type, reason, messages.length === 1 ? listed : `${messages.length} changes: ${listed}${more}`);
    }
    this.#byReason.clear();
  }
}
