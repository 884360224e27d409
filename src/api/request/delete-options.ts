import { badRequest } from '../status';
import { goQuote } from '../status/quote';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** DeleteOptions as a DELETE of one object honours them, merged from the query and the body. */
export interface DeleteOptions {
  dryRun: boolean;
  preconditions: { uid?: string; resourceVersion?: string };
  propagationPolicy?: PropagationPolicy;
}

const POLICIES: readonly PropagationPolicy[] = ['Orphan', 'Background', 'Foreground'];

/** A value from a request, quoted and cut short: messages never echo unbounded input. */
const shown = (v: unknown) => goQuote(String(typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 64));

function dryRunValues(values: readonly unknown[]): boolean {
  for (const v of values) if (v !== 'All') throw badRequest(`dryRun: Unsupported value: ${shown(v)}: supported values: "All"`);
  return values.length > 0;
}

function optionalString(path: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${path}: Invalid value: ${shown(value)}: must be a string`);
  return value;
}

/**
 * Parses the DeleteOptions of a DELETE (kube-apiserver reads them from the query and from a body of
 * kind DeleteOptions, the body winning where both speak): `dryRun` (only `All`), `preconditions`
 * (`uid`, `resourceVersion`) and `propagationPolicy`. Anything malformed is a 400, never ignored: a
 * misspelt dry-run must not delete.
 */
export function parseDeleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  let dryRun = dryRunValues(query.getAll('dryRun'));
  let propagationPolicy = query.get('propagationPolicy') ?? undefined;
  const preconditions: DeleteOptions['preconditions'] = {};
  if (body !== undefined) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body of a DELETE must be a DeleteOptions object');
    const o = body as Record<string, unknown>;
    if (o.kind !== undefined && o.kind !== 'DeleteOptions') throw badRequest(`kind: Invalid value: ${shown(o.kind)}: the body of a DELETE must be DeleteOptions`);
    if (o.dryRun !== undefined && o.dryRun !== null) {
      if (!Array.isArray(o.dryRun)) throw badRequest(`dryRun: Invalid value: ${shown(o.dryRun)}: must be a list`);
      dryRun = dryRunValues(o.dryRun) || dryRun;
    }
    const policy = optionalString('propagationPolicy', o.propagationPolicy);
    if (policy !== undefined) propagationPolicy = policy;
    if (o.orphanDependents !== undefined && o.orphanDependents !== null && typeof o.orphanDependents !== 'boolean') {
      throw badRequest(`orphanDependents: Invalid value: ${shown(o.orphanDependents)}: must be a boolean`);
    }
    if (o.orphanDependents === true && policy !== undefined) throw badRequest('propagationPolicy: Invalid value: orphanDependents and propagationPolicy cannot both be set');
    if (o.orphanDependents === true) propagationPolicy = 'Orphan';
    if (o.gracePeriodSeconds !== undefined && o.gracePeriodSeconds !== null && !(Number.isInteger(o.gracePeriodSeconds) && (o.gracePeriodSeconds as number) >= 0)) {
      throw badRequest(`gracePeriodSeconds: Invalid value: ${shown(o.gracePeriodSeconds)}: must be a non-negative integer`);
    }
    const pre = o.preconditions;
    if (pre !== undefined && pre !== null) {
      if (typeof pre !== 'object' || Array.isArray(pre)) throw badRequest(`preconditions: Invalid value: ${shown(pre)}: must be an object`);
      const p = pre as Record<string, unknown>;
      const uid = optionalString('preconditions.uid', p.uid);
      const resourceVersion = optionalString('preconditions.resourceVersion', p.resourceVersion);
      if (uid !== undefined) preconditions.uid = uid;
      if (resourceVersion !== undefined) preconditions.resourceVersion = resourceVersion;
    }
  }
  if (propagationPolicy !== undefined && !POLICIES.includes(propagationPolicy as PropagationPolicy)) {
    throw badRequest(`propagationPolicy: Unsupported value: ${shown(propagationPolicy)}: supported values: "Foreground", "Background", "Orphan"`);
  }
  const out: DeleteOptions = { dryRun, preconditions };
  if (propagationPolicy !== undefined) out.propagationPolicy = propagationPolicy as PropagationPolicy;
  return out;
}
