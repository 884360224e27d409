import type { ClassField, KubeObject, TenantSpec } from '../kube/types';
import { tenant } from '../testing/tenants';
import { mayUseNode } from './allowed';
import { unresolvedReferences, type ReferencedObjects } from './references';

const obj = (name: string, labels?: Record<string, string>): KubeObject => ({ metadata: { name, ...(labels ? { labels } : {}) } });

function cluster(classes: Partial<Record<ClassField, KubeObject[]>>, nodes: KubeObject[] = []): ReferencedObjects {
  return { classes: (f) => classes[f] ?? [], nodeMatches: (selector) => nodes.some((n) => mayUseNode(tenant('t', { nodeSelector: { ...selector } }), n)) };
}

const oil = (spec: Partial<TenantSpec>) => tenant('oil', spec);

describe('unresolvedReferences', () => {
  it('is empty when every named class exists and a node matches the selector', () => {
    const t = oil({ priorityClasses: { allowed: ['tenant-low'], default: 'tenant-low' }, nodeSelector: { pool: 'oil' } });
    expect(unresolvedReferences(t, cluster({ priorityClasses: [obj('tenant-low')] }, [obj('n1', { pool: 'oil', other: 'x' })]))).toEqual([]);
  });

  it('names a missing class once, with every field that names it', () => {
    const t = oil({ priorityClasses: { allowed: ['tenant-low', 'tenant-high'], default: 'tenant-low' } });
    expect(unresolvedReferences(t, cluster({ priorityClasses: [obj('tenant-high')] }))).toEqual([
      'PriorityClass tenant-low (priorityClasses.allowed, priorityClasses.default)',
    ]);
  });

  it('names a default that is not listed (the schema refuses it now; a Tenant stored under an older one may have it)', () => {
    const t = oil({ storageClasses: { selector: { matchLabels: { tier: 'gold' } }, default: 'gold-ssd' } });
    expect(unresolvedReferences(t, cluster({ storageClasses: [obj('standard')] }))).toEqual(['StorageClass gold-ssd (storageClasses.default)']);
  });

  it('reports nothing for a selector alone: matching no class is what a selector may do', () => {
    const t = oil({ runtimeClasses: { selector: { matchLabels: { sandbox: 'true' } } } });
    expect(unresolvedReferences(t, cluster({}))).toEqual([]);
  });

  it('reports each kind in spec field order, then the nodeSelector no node matches', () => {
    const t = oil({
      ingressClasses: { allowed: ['nginx-internal'] },
      storageClasses: { allowed: ['standard'] },
      nodeSelector: { 'kubernetes.io/os': 'linux', pool: 'oil' },
    });
    expect(unresolvedReferences(t, cluster({}, [obj('n1', { 'kubernetes.io/os': 'linux' })]))).toEqual([
      'StorageClass standard (storageClasses.allowed)',
      'IngressClass nginx-internal (ingressClasses.allowed)',
      'no Node has the labels of nodeSelector kubernetes.io/os=linux,pool=oil',
    ]);
  });

  it('checks classes of a kind against that kind only', () => {
    const t = oil({ storageClasses: { allowed: ['standard'] } });
    expect(unresolvedReferences(t, cluster({ ingressClasses: [obj('standard')] }))).toEqual(['StorageClass standard (storageClasses.allowed)']);
  });

  it('says nothing about nodes for a tenant without a nodeSelector', () => {
    expect(unresolvedReferences(oil({}), cluster({}))).toEqual([]);
    expect(unresolvedReferences(oil({ nodeSelector: {} }), cluster({}))).toEqual([]);
  });
});
