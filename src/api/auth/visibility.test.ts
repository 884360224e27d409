import { ownerSubjectKey, parseServiceAccountUser, subjectKeysFor } from './visibility';

describe('parseServiceAccountUser', () => {
  it('splits a ServiceAccount user name into namespace and name', () => {
    expect(parseServiceAccountUser('system:serviceaccount:ci:deployer')).toEqual({ namespace: 'ci', name: 'deployer' });
    expect(parseServiceAccountUser('system:serviceaccount:ci:deploy.bot-1')).toEqual({ namespace: 'ci', name: 'deploy.bot-1' });
  });

  it('rejects what kube does not take for a ServiceAccount', () => {
    for (const name of ['alice', 'system:serviceaccount:ci', 'system:serviceaccount:ci:a:b', 'system:serviceaccount::x',
      'system:serviceaccount:ci:', 'system:serviceaccount:CI:x', 'system:serviceaccount:c.i:x', 'system:serviceaccounts:ci',
      `system:serviceaccount:${'n'.repeat(64)}:x`]) {
      expect(parseServiceAccountUser(name)).toBeUndefined();
    }
  });
});

describe('subjectKeysFor', () => {
  it('gives a user its user key and one key per group', () => {
    expect(subjectKeysFor({ name: 'bob', groups: ['gas-devs', 'system:authenticated'] }))
      .toEqual(['User:bob', 'Group:gas-devs', 'Group:system:authenticated']);
  });

  it('gives a ServiceAccount its ServiceAccount key as well', () => {
    expect(subjectKeysFor({ name: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] }))
      .toEqual(['User:system:serviceaccount:ci:deployer', 'Group:system:serviceaccounts', 'Group:system:serviceaccounts:ci', 'ServiceAccount:ci/deployer']);
  });

  it('keeps a user and a group of the same name apart and drops duplicates', () => {
    expect(subjectKeysFor({ name: 'devs', groups: ['devs', 'devs'] })).toEqual(['User:devs', 'Group:devs']);
  });

  it('matches the keys of the owner entries that name the caller', () => {
    const owners = [
      { kind: 'User' as const, name: 'alice' },
      { kind: 'Group' as const, name: 'oil-devs' },
      { kind: 'ServiceAccount' as const, namespace: 'ci', name: 'deployer' },
    ];
    const index = new Set(owners.map(ownerSubjectKey));
    const hits = (name: string, groups: string[]) => subjectKeysFor({ name, groups }).filter((k) => index.has(k));
    expect(hits('alice', [])).toEqual(['User:alice']);
    expect(hits('carol', ['oil-devs'])).toEqual(['Group:oil-devs']);
    expect(hits('system:serviceaccount:ci:deployer', [])).toEqual(['ServiceAccount:ci/deployer']);
    expect(hits('system:serviceaccount:other:deployer', [])).toEqual([]);
    expect(hits('Alice', ['alice'])).toEqual([]);
  });
});
