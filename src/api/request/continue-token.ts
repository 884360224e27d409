import { invalidContinueToken } from '../status';

/**
 * A list continuation, encoded as kube-apiserver encodes its own: base64 of
 * `{"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":<first name of the next page>,"snap":<id>}`.
 * The page after a token starts at the first row whose name is >= `start`.
 */
export interface Continuation {
  resourceVersion: string;
  start: string;
  /** The list snapshot the pages come from, while the server keeps it. */
  snapshot?: string;
}

export function encodeContinue(c: Continuation): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: c.resourceVersion, start: c.start, ...(c.snapshot ? { snap: c.snapshot } : {}) })).toString('base64');
}

/** Decodes a token a client sent; anything malformed is 400 BadRequest, as kube answers. */
export function decodeContinue(token: string): Continuation {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw invalidContinueToken();
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown; snap?: unknown };
  if (p?.v !== 'meta.k8s.io/v1') throw invalidContinueToken();
  if (typeof p.start !== 'string' || p.start === '') throw invalidContinueToken();
  if (typeof p.rv !== 'string' || p.rv === '' || p.rv.length > 512) throw invalidContinueToken();
  if (p.snap !== undefined && typeof p.snap !== 'string') throw invalidContinueToken();
  return { resourceVersion: p.rv, start: p.start, ...(p.snap ? { snapshot: p.snap } : {}) };
}

/** The resourceVersion a continue token was issued at; undefined for a token that does not decode. */
export function resourceVersionOfContinue(token: string): string | undefined {
  try {
    return decodeContinue(token).resourceVersion;
  } catch {
    return undefined;
  }
}
