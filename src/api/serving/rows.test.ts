import { encodeContinue } from '../request/continue-token';
import type { ListOptions } from '../request/list-options';
import { tenantNamespacesResource } from '../resources/tenantnamespaces/registration';
import { tenantWorld } from '../testing/tenant-world';
import { listRows } from './rows';
import type { Viewer } from '../registration/served-resource';

const carol: Viewer = { name: 'carol', groups: ['system:authenticated'], seesAll: false };
const opts = (o: Partial<ListOptions> = {}): ListOptions => ({ limit: 0, watch: false, allowWatchBookmarks: false, ...o });

describe('listRows: continue tokens', () => {
  it('a forged continue token answers alike whether or not a row the caller cannot see changed', () => {
    const w = tenantWorld();
    w.tenant('oil', [{ kind: 'User', name: 'alice' }], [{ name: 'oil-a', origin: 'Declared', uid: 'uid-oil-a' }]);
    w.tenant('zeta', [{ kind: 'User', name: 'dave' }], [{ name: 'zeta-secret', origin: 'Declared', uid: 'uid-zeta-secret' }]);
    w.namespace('oil-a', 'oil');
    w.namespace('zeta-secret', 'zeta');
    const r = tenantNamespacesResource(w.view);
    const rv = listRows(r, carol, opts()).metadata.resourceVersion!;
    w.namespace('zeta-secret', 'zeta', 'Terminating'); // a change carol may not see
    const probe = (start: string) => {
      try {
        listRows(r, carol, opts({ continueToken: encodeContinue({ resourceVersion: rv, start }) }));
        return 200;
      } catch (e) {
        return (e as { status: { code: number } }).status.code;
      }
    };
    // Bisecting `start` must not reveal the name of the hidden row that changed.
    expect([probe('zeta-secret'), probe('zeta-secret\u0000'), probe('a')]).toEqual([probe('zz'), probe('zz'), probe('zz')]);
  });
});
