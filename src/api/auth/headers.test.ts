import { bearerToken, identityFromHeaders, unescapeExtraKey, websocketBearerToken } from './headers';

const config = {
  usernameHeaders: ['x-remote-user'],
  uidHeaders: ['x-remote-uid'],
  groupHeaders: ['x-remote-group'],
  extraHeaderPrefixes: ['x-remote-extra-'],
};

describe('identityFromHeaders', () => {
  it('reads the user, every group header line and the extras', () => {
    const user = identityFromHeaders({
      'x-remote-user': ['alice'],
      'x-remote-group': ['oil-devs', 'a, b'],
      'x-remote-extra-scopes': ['read', 'write'],
      'x-remote-extra-acme.com%2fproject': ['p1'],
      'x-remote-extra-Mixed%2FCase': ['m'],
      'user-agent': ['kubectl'],
    }, config);
    expect(user).toEqual({
      name: 'alice',
      groups: ['oil-devs', 'a, b'],
      extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'], 'mixed/case': ['m'] },
    });
  });

  it('takes the first username header that has a value and all values of every group header', () => {
    const user = identityFromHeaders({
      'x-remote-user': [''], 'x-other-user': ['bob', 'ignored'],
      'x-remote-group': ['g1', ''], 'x-other-group': ['g2'],
    }, { ...config, usernameHeaders: ['x-remote-user', 'x-other-user'], groupHeaders: ['x-remote-group', 'x-other-group'] });
    expect(user).toEqual({ name: 'bob', groups: ['g1', 'g2'], extra: {} });
  });

  it('reads the uid header when configured', () => {
    expect(identityFromHeaders({ 'x-remote-user': ['a'], 'x-remote-uid': ['u-1'] }, config)?.uid).toBe('u-1');
  });

  it('asserts nobody without a user name, whatever the groups say', () => {
    expect(identityFromHeaders({ 'x-remote-group': ['system:masters'] }, config)).toBeUndefined();
  });

  it('merges the values of several prefixes into one key', () => {
    const user = identityFromHeaders({ 'x-remote-user': ['a'], 'x-remote-extra-k': ['1'], 'x-alt-extra-k': ['2'] },
      { ...config, extraHeaderPrefixes: ['x-remote-extra-', 'x-alt-extra-'] });
    expect(user?.extra).toEqual({ k: ['1', '2'] });
  });
});

describe('unescapeExtraKey', () => {
  it('decodes %-escapes like Go url.PathUnescape and keeps malformed keys as they are', () => {
    expect(unescapeExtraKey('acme.com%2fproject')).toBe('acme.com/project');
    expect(unescapeExtraKey('a+b')).toBe('a+b');
    expect(unescapeExtraKey('caf%c3%a9')).toBe('café');
    expect(unescapeExtraKey('bad%zzkey')).toBe('bad%zzkey');
    expect(unescapeExtraKey('trailing%2')).toBe('trailing%2');
  });
});

describe('bearerToken', () => {
  it('parses "Bearer <token>" with a case-insensitive scheme', () => {
    expect(bearerToken({ authorization: ['Bearer abc.def'] })).toBe('abc.def');
    expect(bearerToken({ authorization: ['bearer abc'] })).toBe('abc');
  });

  it('ignores other schemes and empty tokens', () => {
    expect(bearerToken({ authorization: ['Basic dXNlcjpwdw=='] })).toBeUndefined();
    expect(bearerToken({ authorization: ['Bearer'] })).toBeUndefined();
    expect(bearerToken({ authorization: ['Bearer  abc'] })).toBeUndefined();
    expect(bearerToken({})).toBeUndefined();
  });
});

describe('websocketBearerToken', () => {
  const upgrade = { upgrade: ['websocket'], connection: ['Upgrade'] };
  const encoded = Buffer.from('my-token').toString('base64url');

  it('reads the token subprotocol of a WebSocket upgrade', () => {
    expect(websocketBearerToken({ ...upgrade, 'sec-websocket-protocol': [`base64url.bearer.authorization.k8s.io.${encoded}, v4.channel.k8s.io`] }))
      .toEqual({ token: 'my-token' });
  });

  it('requires another subprotocol and a single token', () => {
    expect(websocketBearerToken({ ...upgrade, 'sec-websocket-protocol': [`base64url.bearer.authorization.k8s.io.${encoded}`] }))
      .toEqual({ error: 'missing additional subprotocol' });
    expect(websocketBearerToken({ ...upgrade, 'sec-websocket-protocol': [`base64url.bearer.authorization.k8s.io.${encoded}`, `base64url.bearer.authorization.k8s.io.${encoded}, x`] }))
      .toEqual({ error: 'multiple base64.bearer.authorization tokens specified' });
  });

  it('ignores requests that are not WebSocket upgrades', () => {
    expect(websocketBearerToken({ 'sec-websocket-protocol': [`base64url.bearer.authorization.k8s.io.${encoded}, x`] })).toBeUndefined();
  });
});
