import { checkHandshake } from './websocket';
import { clientErrorResponse } from './client-error';
import type { IncomingMessage } from 'node:http';
import { isStatusError } from '../status';

describe('clientErrorResponse', () => {
  it('answers as Go net/http: 431 for oversized headers, 400 for other framing errors, text and close', () => {
    expect(clientErrorResponse('HPE_HEADER_OVERFLOW')!.toString()).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 35\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large');
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_CONTENT_LENGTH', 'HPE_INVALID_TRANSFER_ENCODING', 'HPE_UNEXPECTED_CONTENT_LENGTH', 'HPE_INVALID_HEADER_TOKEN', undefined]) {
      expect(clientErrorResponse(code)!.toString()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*Connection: close\r\n\r\n400 Bad Request$/);
    }
    expect(clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT')!.toString()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(clientErrorResponse('ECONNRESET')).toBeUndefined();
  });
});

function upgrade(headers: Record<string, string | string[]>, method = 'GET'): IncomingMessage {
  const distinct: Record<string, string[]> = {};
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    distinct[k] = Array.isArray(v) ? v : [v];
    flat[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return { method, headers: flat, headersDistinct: distinct } as unknown as IncomingMessage;
}

const GOOD = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13', origin: 'https://example.com' };

function refusal(req: IncomingMessage) {
  try {
    checkHandshake(req);
  } catch (err) {
    if (isStatusError(err)) return [err.code, err.status.message];
    throw err;
  }
  return 'accepted';
}

describe('checkHandshake', () => {
  it('accepts a well-formed handshake and picks one subprotocol, never the bearer token', () => {
    expect(checkHandshake(upgrade(GOOD))).toEqual({});
    expect(checkHandshake(upgrade({ ...GOOD, 'sec-websocket-protocol': 'base64url.bearer.authorization.k8s.io.dG9rZW4, base64.binary.k8s.io' }))).toEqual({ protocol: 'base64.binary.k8s.io' });
    expect(checkHandshake(upgrade({ ...GOOD, 'sec-websocket-protocol': ['binary.k8s.io', 'base64.binary.k8s.io'] }))).toEqual({ protocol: 'binary.k8s.io' });
    expect(checkHandshake(upgrade({ ...GOOD, 'sec-websocket-protocol': 'base64url.bearer.authorization.k8s.io.dG9rZW4' }))).toEqual({});
  });

  it('refuses what cannot complete, as kube-apiserver\'s watch handshake does', () => {
    const { 'sec-websocket-key': _key, ...noKey } = GOOD;
    expect(refusal(upgrade(noKey))).toEqual([400, 'websocket: missing or invalid Sec-WebSocket-Key']);
    expect(refusal(upgrade({ ...GOOD, 'sec-websocket-key': 'short' }))).toEqual([400, 'websocket: missing or invalid Sec-WebSocket-Key']);
    expect(refusal(upgrade({ ...GOOD, 'sec-websocket-version': '8' }))).toEqual([400, 'websocket: missing or bad WebSocket Version']);
    expect(refusal(upgrade(GOOD, 'POST'))).toEqual([405, 'websocket: the handshake must be a GET request']);
    expect(refusal(upgrade({ ...GOOD, upgrade: 'h2c' }))).toEqual([400, 'websocket: not websocket protocol']);
    const { origin: _origin, ...noOrigin } = GOOD;
    expect(refusal(upgrade(noOrigin))).toEqual([403, 'websocket: null origin']);
    expect(refusal(upgrade({ ...GOOD, origin: 'null' }))).toEqual([403, 'websocket: invalid Origin header']);
    expect(refusal(upgrade({ ...GOOD, 'sec-websocket-protocol': 'a b' }))).toEqual([400, 'websocket: invalid Sec-WebSocket-Protocol header']);
    expect(refusal(upgrade({ ...GOOD, 'sec-websocket-protocol': 'a, a' }))).toEqual([400, 'websocket: invalid Sec-WebSocket-Protocol header']);
  });
});
