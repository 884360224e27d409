/**
 * The bad-input corpus: requests no client should send, each of which must get a small 4xx (or an
 * ordinary 2xx) answer, never a 5xx, a dropped connection or a hang. Deterministic: the same table every
 * run. `HTTP_CASES` go through an ordinary HTTPS client (as the admin and as a tenant user);
 * `RAW_CASES` are bytes written on a raw TLS connection, for framing no client library would produce.
 */

export interface HttpCase {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawCase {
  name: string;
  /** Written in order on a fresh TLS connection. */
  payload: string | Buffer;
  /** Send a client certificate of this user. */
  user?: 'admin' | 'alice';
}

const TNS = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';
const ITEM = `${TNS}/nobody-home`;
const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const enc = encodeURIComponent;

const paths = [
  '/', '/apis', '/apis/', '/api', '/api/v1', '/apis/tenancy.paddock.dev', '/apis/tenancy.paddock.dev/v1alpha1', '/apis/tenancy.paddock.dev/v2',
  '/apis/paddock.dev/v1alpha1/tenants', `${TNS}/`, `${ITEM}/status`, `${ITEM}/x/y`, `${TNS}/%ZZ`, `${TNS}/%00`, `${TNS}/%2e%2e%2fetc`,
  `${TNS}/${'a'.repeat(300)}`, `${TNS}/${'%E2%82'.repeat(3)}`, `${TNS}/%F0%9F%90%B4`, `${TNS}/..`, '/openapi/v2', '/openapi/v3', '/openapi/v4',
  '/openapi/v3/apis/tenancy.paddock.dev/v1alpha1?hash=zz', '/openapi/v3/apis/nothing', '/metrics', '/healthz/x', '/readyz?verbose', '//apis',
  '/apis/../apis', `${TNS}?%`, `${TNS}?&&&==&`, `${TNS}?a=%E0%A4%A`, `/${'x'.repeat(8000)}`, `${TNS}?labelSelector=${'a'.repeat(12_000)}`,
  '/version', '/livez/ping', '/.well-known/openid-configuration', '/apis/tenancy.paddock.dev/v1alpha1/namespaces/x/tenantnamespaces',
];

const labelSelectors = ['=', '!', 'a in (', 'a notin', 'a==b==c', '(a)', 'a=b,', ',', 'a in (b,', 'a!=', '!a=b', 'a b', 'x'.repeat(5000),
  `a=${'v'.repeat(100)}`, 'a/b/c=d', '%%', 'a in ()', 'a>1', 'a<x', 'a=b c', '-a=b', 'a=-', 'a in (b c)', `${'k'.repeat(300)}/x=y`, '\u0000=x', 'a=é'];
const fieldSelectors = ['metadata.namespace=x', 'x', '=', 'spec.tenant', 'spec.tenant==', 'metadata.name!=a,b', 'status.phase=Active,foo=bar',
  '!metadata.name', 'metadata.name in (a)', 'f'.repeat(5000), 'metadata.name=a=b', 'spec.tenant=\\', 'metadata.name=%00'];
const limits = ['-1', 'abc', '1.5', '99999999999999999999', '0x10', ' 1', '1e3', '2147483648', '-0'];
const continues = ['garbage', '%%', b64('{}'), b64('{"v":"meta.k8s.io/v1","rv":"x","start":"a"}'), b64('{"v":"meta.k8s.io/v1","rv":"1","start":""}'),
  b64(`{"v":${'['.repeat(5000)}${']'.repeat(5000)}}`), 'a'.repeat(8000), b64('{"v":"meta.k8s.io/v1","rv":"99999999999999999999999","start":"a","snap":7}'),
  b64('{"v":"meta.k8s.io/v1","rv":"1","start":"a","snap":"nope"}'), b64('null'), b64('"s"')];
const resourceVersions = ['abc', '-1', '99999999999999999999999', '0', '1', 'x'.repeat(1000), '1.5', 'p:1'];
const timeouts = ['-1', 'abc', '1e9', '99999999999999999999', '1.5'];

function lists(): HttpCase[] {
  const out: HttpCase[] = [];
  const get = (name: string, query: string, headers?: Record<string, string>) => out.push({ name, method: 'GET', path: `${TNS}?${query}`, headers });
  for (const s of labelSelectors) get(`labelSelector ${JSON.stringify(s.slice(0, 20))}`, `labelSelector=${enc(s)}`);
  for (const s of fieldSelectors) get(`fieldSelector ${JSON.stringify(s.slice(0, 20))}`, `fieldSelector=${enc(s)}`);
  for (const l of limits) get(`limit ${l}`, `limit=${enc(l)}`);
  for (const c of continues) get(`continue ${c.slice(0, 16)}`, `continue=${enc(c)}&limit=1`);
  for (const rv of resourceVersions) {
    get(`resourceVersion ${rv.slice(0, 16)}`, `resourceVersion=${enc(rv)}`);
    get(`resourceVersion ${rv.slice(0, 16)} Exact`, `resourceVersion=${enc(rv)}&resourceVersionMatch=Exact`);
  }
  for (const m of ['Bogus', 'NotOlderThan', 'exact', '']) get(`resourceVersionMatch ${m} alone`, `resourceVersionMatch=${m}`);
  get('continue with a resourceVersion', `continue=${enc(continues[4]!)}&resourceVersion=5`);
  for (const t of timeouts) get(`timeoutSeconds ${t}`, `timeoutSeconds=${enc(t)}`);
  for (const w of ['maybe', '2', 'TRUE ', 'yes']) get(`watch=${w}`, `watch=${enc(w)}`);
  get('watch with resourceVersionMatch but no sendInitialEvents', 'watch=true&resourceVersion=0&resourceVersionMatch=NotOlderThan');
  get('sendInitialEvents without bookmarks', 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan');
  get('sendInitialEvents on a list', 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan');
  get('sendInitialEvents=maybe', 'watch=true&sendInitialEvents=maybe');
  get('watch at a foreign resourceVersion', 'watch=true&resourceVersion=abc&timeoutSeconds=1');
  get('watch from the future', 'watch=true&resourceVersion=99999999999&timeoutSeconds=1');
  get('watch as YAML', 'watch=true&timeoutSeconds=1', { Accept: 'application/yaml' });
  get('watch as protobuf only', 'watch=true&timeoutSeconds=1', { Accept: 'application/vnd.kubernetes.protobuf;stream=watch' });
  get('allowWatchBookmarks=x', 'watch=true&allowWatchBookmarks=x');
  for (const i of ['Bogus', 'none', '']) get(`includeObject ${i}`, `includeObject=${i}`, { Accept: TABLE });
  for (const p of ['x', '2', '']) get(`pretty ${p}`, `pretty=${p}`);
  get('every parameter twice', 'limit=1&limit=x&labelSelector=a&labelSelector=(&watch=false&watch=zz');
  get('a 12 KB query', `labelSelector=${'a'.repeat(12_000)}`);
  get('unknown parameters', 'foo=bar&=x&%5B%5D=1');
  return out;
}

const accepts = ['application/protobuf', 'text/html', '*/*;q=0', 'application/json;as=Table', 'application/json;as=Table;g=meta.k8s.io;v=v2',
  'application/json;as=Bogus;g=meta.k8s.io;v=v1', 'application/yaml;stream=watch', ',,,', 'a/b/c', 'application/json;q=abc', `application/${'x'.repeat(8000)}`,
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', ';;;', '\t',
  'application/json; charset=utf-16', 'application/json;sv=v2', 'application/json;stream=nope', 'image/png, text/*', `${TABLE};includeObject=Object`];

function negotiation(): HttpCase[] {
  const out: HttpCase[] = [];
  for (const a of accepts) {
    out.push({ name: `list Accept ${a.slice(0, 40)}`, method: 'GET', path: TNS, headers: { Accept: a } });
    out.push({ name: `get Accept ${a.slice(0, 40)}`, method: 'GET', path: ITEM, headers: { Accept: a } });
  }
  for (const a of accepts.slice(0, 6)) out.push({ name: `discovery Accept ${a.slice(0, 40)}`, method: 'GET', path: '/apis', headers: { Accept: a } });
  return out;
}

const alias = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`), 'kind: [*h,*h,*h,*h,*h,*h,*h,*h,*h]'].join('\n');

const jsonBodies: [string, string | Buffer][] = [
  ['{', '{'], ['}', '}'], ['[', '['], ['null', 'null'], ['a string', '"str"'], ['a number', '123'], ['true', 'true'], ['an array', '[]'],
  ['kind a number', '{"kind":1}'], ['metadata a string', '{"metadata":"x"}'], ['name a number', '{"metadata":{"name":1},"spec":{"tenant":"x"}}'],
  ['name upper case', '{"metadata":{"name":"UPPER"},"spec":{"tenant":"x"}}'], ['tenant an object', '{"metadata":{"name":"x-y"},"spec":{"tenant":{"a":1}}}'],
  ['a 100 KB name', `{"metadata":{"name":"${'a'.repeat(100_000)}"},"spec":{"tenant":"a"}}`],
  ['deep metadata', `{"metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`], ['20000 deep kind', `{"kind":${'['.repeat(20000)}${']'.repeat(20000)}}`],
  ['a NUL', '\u0000'], ['a BOM', '\ufeff{"metadata":{"name":"x-y"},"spec":{"tenant":"x"}}'], ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ['trailing garbage', '{"a":1}garbage'], ['__proto__', '{"__proto__":{"polluted":1},"metadata":{"name":"x-y"},"spec":{"tenant":"x"}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"x":1}}}'], ['duplicate keys', '{"metadata":{"name":"a-b"},"metadata":{"name":"c"}}'],
  ['1e400', '{"metadata":{"name":1e400}}'], ['unknown fields', '{"metadata":{"name":"x-y"},"spec":{"tenant":"x","extra":true},"bogus":1}'],
  ['wrong kind and apiVersion', '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x-y"},"spec":{"tenant":"x"}}'],
  ['huge kind', `{"kind":"${'k'.repeat(500_000)}"}`], ['many keys', `{${Array.from({ length: 20000 }, (_, i) => `"k${i}":${i}`).join(',')}}`],
  ['a long array', `{"kind":[${Array(100_000).fill('1').join(',')}]}`], ['whitespace', '   \n\t  '], ['lone surrogate', '{"metadata":{"name":"\\ud800"}}'],
  ['a name of another tenant', '{"metadata":{"name":"nobody-home"},"spec":{"tenant":"nobody"}}'], ['empty object', '{}'],
  ['escaped controls', '{"metadata":{"name":"a\\u0000b"},"spec":{"tenant":"a"}}'], ['over the size limit', `{"kind":"${'x'.repeat(1_100_000)}"}`],
];
const yamlBodies: [string, string][] = [
  ['an alias bomb', alias], ['deep sequences', `${'- '.repeat(300)}x`], ['deep flow', `a: ${'['.repeat(500)}${']'.repeat(500)}`], ['tabs', 'a:\n\t- b'],
  ['a js function tag', 'a: !!js/function "function(){}"'], ['binary', 'a: !!binary aGVsbG8='], ['a complex key', '? [a, b]\n: c'], ['an unknown alias', 'a: *nope'],
  ['a merge of nothing', '<<: *undefined'], ['several documents', '---\na: 1\n---\nb: 2'], ['YAML 2.0', '%YAML 2.0\n---\na: 1'], ['a recursive alias', 'a: &a [*a]'],
  ['a huge string', `kind: ${'y'.repeat(500_000)}`], ['timestamps', 'metadata: {name: 2024-01-01}\nspec: {tenant: 2024}'], ['a set', 'a: !!set {x, y}'],
  ['unclosed quote', 'a: "b'], ['anchors everywhere', Array.from({ length: 2000 }, (_, i) => `k${i}: &a${i} v`).join('\n')], ['just a colon', ':'],
  ['a valid object of nobody', 'apiVersion: tenancy.paddock.dev/v1alpha1\nkind: TenantNamespace\nmetadata: {name: nobody-x}\nspec: {tenant: nobody}'],
];
const contentTypes = ['text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json', 'application/merge-patch+json',
  'application/apply-patch+yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor', 'multipart/form-data; boundary=x', ';',
  'application/json; charset=latin1', 'APPLICATION/JSON', 'application/yaml; charset=utf-16', '*/*'];

function bodies(): HttpCase[] {
  const out: HttpCase[] = [];
  for (const [name, body] of jsonBodies) out.push({ name: `POST JSON ${name}`, method: 'POST', path: TNS, headers: { 'Content-Type': 'application/json' }, body });
  for (const [name, body] of yamlBodies) out.push({ name: `POST YAML ${name}`, method: 'POST', path: TNS, headers: { 'Content-Type': 'application/yaml' }, body });
  for (const ct of contentTypes) out.push({ name: `POST Content-Type ${ct}`, method: 'POST', path: TNS, headers: { 'Content-Type': ct }, body: '{"metadata":{"name":"x-y"},"spec":{"tenant":"x"}}' });
  for (const q of ['dryRun=None', 'dryRun=x', 'dryRun=', 'dryRun=All&dryRun=x', 'fieldValidation=Bogus', 'fieldValidation=strict', 'fieldValidation=Strict', 'pretty=maybe']) {
    out.push({ name: `POST ${q}`, method: 'POST', path: `${TNS}?${q}`, headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"nobody-x"},"spec":{"tenant":"nobody"},"extra":1}' });
  }
  for (const [name, body] of jsonBodies.slice(0, 12)) out.push({ name: `DELETE with body ${name}`, method: 'DELETE', path: ITEM, headers: { 'Content-Type': 'application/json' }, body });
  out.push({ name: 'DELETE with a YAML alias bomb', method: 'DELETE', path: ITEM, headers: { 'Content-Type': 'application/yaml' }, body: alias });
  out.push({ name: 'POST gzip-encoded', method: 'POST', path: TNS, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]) });
  out.push({ name: 'POST to an item', method: 'POST', path: ITEM, headers: { 'Content-Type': 'application/json' }, body: '{}' });
  return out;
}

function methods(): HttpCase[] {
  const out: HttpCase[] = [];
  for (const m of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'LINK', 'PURGE', 'SEARCH', 'REPORT', 'LOCK']) {
    out.push({ name: `${m} collection`, method: m, path: TNS, headers: { 'Content-Type': 'application/json' }, body: '{}' });
    out.push({ name: `${m} item`, method: m, path: ITEM, headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{}' });
  }
  for (const m of ['POST', 'DELETE', 'PUT']) out.push({ name: `${m} /apis`, method: m, path: '/apis', body: '{}' });
  out.push({ name: 'HEAD list', method: 'HEAD', path: TNS });
  out.push({ name: 'HEAD item', method: 'HEAD', path: ITEM });
  return out;
}

function headers(): HttpCase[] {
  const h = (name: string, headers: Record<string, string>, path = TNS): HttpCase => ({ name, method: 'GET', path, headers });
  return [
    h('a garbage bearer token', { Authorization: 'Bearer garbage' }), h('a Basic authorization', { Authorization: 'Basic YTpi' }),
    h('an empty Authorization', { Authorization: '' }), h('Bearer without token', { Authorization: 'Bearer' }),
    h('spoofed X-Remote-User', { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' }), h('Impersonate-User', { 'Impersonate-User': 'admin' }),
    h('a huge cookie', { Cookie: 'c'.repeat(12_000) }), h('If-None-Match garbage', { 'If-None-Match': '"x"' }, '/apis'),
    h('a websocket protocol without upgrade', { 'Sec-WebSocket-Protocol': 'base64url.bearer.authorization.k8s.io.!!!' }),
    h('a 12 KB User-Agent', { 'User-Agent': 'u'.repeat(12_000) }), h('Range', { Range: 'bytes=0-1' }), h('Expect: nothing-known', { Expect: 'nothing-known' }),
    h('Accept-Encoding gzip;q=garbage', { 'Accept-Encoding': 'gzip;q=x' }), h('Connection: upgrade without Upgrade', { Connection: 'upgrade' }),
    h('Content-Type on a GET', { 'Content-Type': 'text/html' }), h('X-Forwarded-For garbage', { 'X-Forwarded-For': '\u00ff\u00fe' }),
  ];
}

/** Names cut short may collide: number the repeats. */
function uniquelyNamed(cases: HttpCase[]): HttpCase[] {
  const seen = new Map<string, number>();
  return cases.map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    return n === 1 ? c : { ...c, name: `${c.name} #${n}` };
  });
}

export const HTTP_CASES: HttpCase[] = uniquelyNamed([
  ...paths.map((path) => ({ name: `GET ${path.slice(0, 60)}`, method: 'GET', path })),
  ...lists(), ...negotiation(), ...bodies(), ...methods(), ...headers(),
]);

const H = 'Host: paddock\r\n';
const req = (line: string, extra = '') => `${line}\r\n${H}${extra}\r\n`;

export const RAW_CASES: RawCase[] = [
  { name: 'HTTP/1.0', payload: `GET ${TNS} HTTP/1.0\r\n\r\n` },
  { name: 'HTTP/2 preface', payload: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' },
  { name: 'HTTP/9.9', payload: req(`GET ${TNS} HTTP/9.9`) },
  { name: 'HTTP/0.9', payload: 'GET /\r\n\r\n' },
  { name: 'bare LF line endings', payload: `GET ${TNS} HTTP/1.1\n${H.trim()}\n\n` },
  { name: 'a header without a colon', payload: req(`GET ${TNS} HTTP/1.1`, 'NoColonHere\r\n') },
  { name: 'a space in a header name', payload: req(`GET ${TNS} HTTP/1.1`, 'Bad Name: x\r\n') },
  { name: 'an obs-fold continuation', payload: req(`GET ${TNS} HTTP/1.1`, 'X-A: a\r\n  folded\r\n') },
  { name: 'NUL in a header value', payload: req(`GET ${TNS} HTTP/1.1`, 'X-A: a\u0000b\r\n') },
  { name: 'a 20 KB header', payload: req(`GET ${TNS} HTTP/1.1`, `X-Big: ${'a'.repeat(20_000)}\r\n`) },
  { name: 'a 20 KB URL', payload: req(`GET ${TNS}?labelSelector=${'a'.repeat(20_000)} HTTP/1.1`) },
  { name: '1000 small headers', payload: req(`GET ${TNS} HTTP/1.1`, Array.from({ length: 1000 }, (_, i) => `X-H${i}: v\r\n`).join('')) },
  { name: 'Content-Length abc', payload: req(`POST ${TNS} HTTP/1.1`, 'Content-Length: abc\r\n') },
  { name: 'Content-Length -1', payload: req(`POST ${TNS} HTTP/1.1`, 'Content-Length: -1\r\n') },
  { name: 'two different Content-Lengths', payload: req(`POST ${TNS} HTTP/1.1`, 'Content-Length: 1\r\nContent-Length: 2\r\n') + 'ab' },
  { name: 'Content-Length and chunked', payload: req(`POST ${TNS} HTTP/1.1`, 'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n') + '0\r\n\r\n' },
  { name: 'a bad chunk size', payload: req(`POST ${TNS} HTTP/1.1`, 'Transfer-Encoding: chunked\r\n') + 'zz\r\nab\r\n0\r\n\r\n' },
  { name: 'an overflowing chunk size', payload: req(`POST ${TNS} HTTP/1.1`, 'Transfer-Encoding: chunked\r\n') + 'ffffffffffffffffffff\r\nab\r\n' },
  { name: 'Transfer-Encoding gzip', payload: req(`POST ${TNS} HTTP/1.1`, 'Transfer-Encoding: gzip\r\n') },
  { name: 'chunked twice', payload: req(`POST ${TNS} HTTP/1.1`, 'Transfer-Encoding: chunked, chunked\r\n') + '0\r\n\r\n' },
  { name: 'a chunk extension of garbage', payload: req(`POST ${TNS} HTTP/1.1`, 'Transfer-Encoding: chunked\r\n') + '2;\u0001\r\n{}\r\n0\r\n\r\n' },
  { name: 'a valid chunked alias bomb', user: 'admin', payload: req(`POST ${TNS} HTTP/1.1`, 'Transfer-Encoding: chunked\r\nContent-Type: application/yaml\r\n') + `${Buffer.byteLength(alias).toString(16)}\r\n${alias}\r\n0\r\n\r\n` },
  { name: 'an invalid method', payload: req(`G@T ${TNS} HTTP/1.1`) },
  { name: 'a lowercase method', payload: req(`get ${TNS} HTTP/1.1`) },
  { name: 'an unknown method', payload: req(`FROB ${TNS} HTTP/1.1`) },
  { name: 'a 300-character method', payload: req(`${'G'.repeat(300)} ${TNS} HTTP/1.1`) },
  { name: 'a control character in the target', payload: req('GET /apis\u0001 HTTP/1.1') },
  { name: 'a space in the target', payload: req('GET /a b HTTP/1.1') },
  { name: 'a tab in the target', payload: req('GET /a\tb HTTP/1.1') },
  { name: 'no version', payload: `GET ${TNS}\r\n${H}\r\n` },
  { name: 'a method alone', payload: 'GET\r\n\r\n' },
  { name: 'an absolute-form target', payload: req(`GET https://elsewhere${TNS} HTTP/1.1`), user: 'admin' },
  { name: 'an asterisk target', payload: req('OPTIONS * HTTP/1.1') },
  { name: 'CONNECT', payload: req('CONNECT elsewhere:443 HTTP/1.1') },
  { name: 'no Host', payload: `GET ${TNS} HTTP/1.1\r\n\r\n`, user: 'admin' },
  { name: 'two Hosts', payload: `GET ${TNS} HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n`, user: 'admin' },
  { name: 'pipelined requests', payload: req(`GET ${TNS} HTTP/1.1`) + req('GET /apis HTTP/1.1'), user: 'alice' },
  { name: 'Expect: 100-continue', user: 'admin', payload: req(`POST ${TNS} HTTP/1.1`, 'Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n') + '{}' },
  { name: 'Upgrade: h2c', payload: req(`GET ${TNS} HTTP/1.1`, 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n'), user: 'admin' },
  { name: 'a WebSocket upgrade elsewhere', payload: req('GET /apis HTTP/1.1', 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'), user: 'alice' },
  { name: 'a WebSocket upgrade without key', payload: req(`GET ${TNS}?watch=1 HTTP/1.1`, 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nOrigin: https://x\r\n'), user: 'alice' },
  { name: 'a WebSocket upgrade, version 8', payload: req(`GET ${TNS}?watch=1 HTTP/1.1`, 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 8\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: https://x\r\n'), user: 'alice' },
  { name: 'a WebSocket POST', payload: req(`POST ${TNS} HTTP/1.1`, 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: https://x\r\n'), user: 'alice' },
  { name: 'a WebSocket upgrade with a bad bearer subprotocol', payload: req(`GET ${TNS}?watch=1 HTTP/1.1`, 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: https://x\r\nSec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.!!!\r\n') },
  { name: 'binary garbage', payload: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 151 + 7) % 256)) },
  { name: 'an empty request', payload: '\r\n\r\n' },
  { name: 'headers that never end', payload: `GET ${TNS} HTTP/1.1\r\n${H}X-Slow: 1\r\n` },
  { name: 'a body shorter than its Content-Length', user: 'admin', payload: req(`POST ${TNS} HTTP/1.1`, 'Content-Type: application/json\r\nContent-Length: 100\r\n') + '{"kind":' },
  { name: 'a body nobody reads, cut short', payload: req('GET /healthz HTTP/1.1', 'Content-Length: 100\r\n') + 'abc' },
  { name: 'a Content-Length of 10 GB', user: 'admin', payload: req(`POST ${TNS} HTTP/1.1`, 'Content-Type: application/json\r\nContent-Length: 10000000000\r\n') + '{' },
  { name: 'a NUL byte request line', payload: '\u0000\u0000\u0000\r\n\r\n' },
  { name: 'a UTF-8 target', payload: req('GET /apis/ténant HTTP/1.1') },
];
