import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { clusterRoleBindings, clusterRoles } from './cluster-roles';
import { needsUpdate, type ManagedObject } from './drift';

describe('apiservice/tenant-roles.yaml', () => {
  const installed = loadAll(readFileSync(join(__dirname, '..', '..', 'apiservice', 'tenant-roles.yaml'), 'utf8')) as ManagedObject[];

  it('installs exactly the roles and bindings Paddock keeps in place (regenerate with npm run gen:roles)', () => {
    const shipped = [...clusterRoles(), ...clusterRoleBindings()] as unknown as ManagedObject[];
    expect(installed.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(shipped.map((o) => `${o.kind}/${o.metadata.name}`));
    installed.forEach((o, i) => expect(needsUpdate(o, shipped[i])).toBe(false));
  });
});
