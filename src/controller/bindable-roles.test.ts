import type { Logger } from '../log/logger';
import { silentLogger } from '../kube/log';
import { BindableRoles } from './bindable-roles';

/** kube-apiserver answering SelfSubjectAccessReviews from `allowed` (the roles Paddock may bind), recording what was asked. */
function apiserver(allowed: Set<string>) {
  const asked: unknown[] = [];
  let failing = false;
  return {
    asked,
    fail: (on: boolean) => void (failing = on),
    async request<T>(method: string, path: string, opts: { body?: unknown } = {}): Promise<T> {
      if (failing) throw new Error('connection refused');
      asked.push({ method, path, body: opts.body });
      const name = (opts.body as { spec: { resourceAttributes: { name: string } } }).spec.resourceAttributes.name;
      return { status: { allowed: allowed.has(name) } } as T;
    },
  };
}

function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = { ...silentLogger, error: (msg: string) => void lines.push(msg), warn: (msg: string) => void lines.push(msg), lines };
  return log;
}

describe('BindableRoles', () => {
  it('takes every listed role as bindable until kube-apiserver has answered', () => {
    const roles = new BindableRoles(apiserver(new Set()), ['view', 'edit'], silentLogger);
    expect(roles.current()).toEqual({ listed: ['view', 'edit'] });
  });

  it('asks kube-apiserver whether Paddock may bind each listed cluster role', async () => {
    const server = apiserver(new Set(['view', 'edit']));
    await new BindableRoles(server, ['view', 'edit'], silentLogger).refresh();
    expect(server.asked).toEqual(['view', 'edit'].map((name) => ({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'bind', name } },
      },
    })));
  });

  it('refuses a listed role RBAC does not let Paddock bind, logs it once, and takes it back when RBAC changes', async () => {
    const allowed = new Set(['view']);
    const log = recorder();
    const roles = new BindableRoles(apiserver(allowed), ['view', 'edit'], log);
    expect(await roles.refresh()).toBe(true);
    expect(roles.current()).toEqual({ listed: ['view', 'edit'], denied: new Set(['edit']) });
    expect(log.lines).toEqual([expect.stringContaining('--bindable-cluster-roles lists cluster roles that Paddock\'s RBAC does not let it bind')]);
    expect(await roles.refresh()).toBe(false);
    expect(log.lines).toHaveLength(1);

    allowed.add('edit');
    expect(await roles.refresh()).toBe(true);
    expect(roles.current().denied).toEqual(new Set());
  });

  it('asks again on a resync only while some listed role is refused: a converged cluster costs no request', async () => {
    const allowed = new Set(['view']);
    const server = apiserver(allowed);
    const roles = new BindableRoles(server, ['view', 'edit'], silentLogger);
    expect(await roles.recheck()).toBe(false);
    expect(server.asked).toHaveLength(0);
    await roles.refresh();
    expect(await roles.recheck()).toBe(false);
    expect(server.asked).toHaveLength(4);
    allowed.add('edit');
    expect(await roles.recheck()).toBe(true);
    expect(server.asked).toHaveLength(6);
    expect(await roles.recheck()).toBe(false);
    expect(server.asked).toHaveLength(6);
  });

  it('keeps the last answer when kube-apiserver cannot be asked', async () => {
    const server = apiserver(new Set(['view']));
    const roles = new BindableRoles(server, ['view', 'edit'], silentLogger);
    await roles.refresh();
    server.fail(true);
    expect(await roles.refresh()).toBe(false);
    expect(roles.current().denied).toEqual(new Set(['edit']));
  });
});
