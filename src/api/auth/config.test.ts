import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePki, type Pki } from '../../../test/controlplane/pki';
import { waitFor } from '../../testing/wait';
import { AuthConfigSource, EMPTY_AUTHENTICATION_CONFIG, parseAuthenticationConfig } from './config';
import type { KubeRequester } from './types';

let pki: Pki;
let data: Record<string, string>;

beforeAll(() => {
  pki = generatePki(mkdtempSync(join(tmpdir(), 'paddock-authcfg-')));
  // What kube-apiserver publishes (values are JSON arrays, as in the real ConfigMap).
  data = {
    'client-ca-file': readFileSync(pki.ca.cert, 'utf8'),
    'requestheader-client-ca-file': readFileSync(pki.frontProxyCa.cert, 'utf8'),
    'requestheader-allowed-names': '["front-proxy-client"]',
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  };
});

afterAll(() => rmSync(pki.dir, { recursive: true, force: true }));

describe('parseAuthenticationConfig', () => {
  it('reads both CAs and the request-header settings, header names lowercased', () => {
    const config = parseAuthenticationConfig(data, '42');
    expect(config.resourceVersion).toBe('42');
    expect(config.clientCA?.certs).toHaveLength(1);
    expect(config.clientCA?.certs[0].subject).toBe('CN=paddock-local-ca');
    expect(config.requestHeader).toMatchObject({
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['x-remote-user'],
      uidHeaders: [],
      groupHeaders: ['x-remote-group'],
      extraHeaderPrefixes: ['x-remote-extra-'],
    });
    expect(config.requestHeader?.ca.certs[0].subject).toBe('CN=paddock-local-front-proxy-ca');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('trusts no front proxy without a request-header CA, and no client certificate without a client CA', () => {
    const { ['requestheader-client-ca-file']: _rh, ...noProxy } = data;
    expect(parseAuthenticationConfig(noProxy).requestHeader).toBeUndefined();
    const { ['client-ca-file']: _ca, ...noClientCa } = data;
    expect(parseAuthenticationConfig(noClientCa).clientCA).toBeUndefined();
    expect(parseAuthenticationConfig(undefined)).toEqual({ resourceVersion: undefined });
  });

  it('treats an empty or null allowed-names list as "any CN of the request-header CA"', () => {
    expect(parseAuthenticationConfig({ ...data, 'requestheader-allowed-names': '' }).requestHeader?.allowedNames).toEqual([]);
    expect(parseAuthenticationConfig({ ...data, 'requestheader-allowed-names': 'null' }).requestHeader?.allowedNames).toEqual([]);
  });

  it('names the key of a malformed value', () => {
    expect(() => parseAuthenticationConfig({ ...data, 'requestheader-group-headers': 'X-Remote-Group' })).toThrow(/requestheader-group-headers/);
    expect(() => parseAuthenticationConfig({ ...data, 'requestheader-allowed-names': '[1]' })).toThrow(/requestheader-allowed-names/);
    expect(() => parseAuthenticationConfig({ ...data, 'client-ca-file': 'not a pem' })).toThrow(/client-ca-file/);
  });
});

/** Serves one ConfigMap whose data the test changes; can be told to fail. */
class FakeConfigMaps implements KubeRequester {
  data: Record<string, string> = {};
  rv = 1;
  fail = false;
  paths: string[] = [];
  async request<T>(method: string, path: string): Promise<T> {
    this.paths.push(`${method} ${path}`);
    if (this.fail) throw new Error('connection refused');
    return { metadata: { name: 'x', resourceVersion: String(this.rv) }, data: { ...this.data } } as T;
  }
}

describe('AuthConfigSource', () => {
  it('loads the ConfigMap of kube-system on start', async () => {
    const kube = new FakeConfigMaps();
    kube.data = data;
    const source = new AuthConfigSource(kube);
    expect(source.current).toBe(EMPTY_AUTHENTICATION_CONFIG);
    const config = await source.start();
    source.stop();
    expect(kube.paths).toEqual(['GET /api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication']);
    expect(config.requestHeader?.allowedNames).toEqual(['front-proxy-client']);
    expect(source.current).toBe(config);
  });

  it('refuses to start when the ConfigMap cannot be read', async () => {
    const kube = new FakeConfigMaps();
    kube.fail = true;
    await expect(new AuthConfigSource(kube).start()).rejects.toThrow(/connection refused/);
  });

  it('picks up a change within one interval, tells listeners, and keeps the last good configuration on errors', async () => {
    const kube = new FakeConfigMaps();
    kube.data = data;
    const errors: Error[] = [];
    const source = new AuthConfigSource(kube, { intervalMs: 20, onError: (e) => errors.push(e) });
    const seen: string[][] = [];
    source.onChange((c) => seen.push(c.requestHeader?.allowedNames ?? []));
    const first = await source.start();
    try {
      await new Promise((r) => setTimeout(r, 60));
      expect(source.current).toBe(first); // unchanged data → same object
      kube.data = { ...data, 'requestheader-allowed-names': '["other-proxy"]' };
      kube.rv++;
      await waitFor('a new configuration', () => source.current !== first, 2000, 5);
      expect(source.current.requestHeader?.allowedNames).toEqual(['other-proxy']);
      const good = source.current;
      kube.data = { ...data, 'requestheader-allowed-names': 'garbage' };
      kube.rv++;
      await waitFor('an error', () => errors.length > 0, 2000, 5);
      expect(source.current).toBe(good);
      kube.fail = true;
      await waitFor('a refusal', () => errors.some((e) => /refused/.test(e.message)), 2000, 5);
      expect(source.current).toBe(good);
      expect(seen).toEqual([['front-proxy-client'], ['other-proxy']]);
    } finally {
      source.stop();
    }
  });
});
