import { load as loadYaml } from 'js-yaml';
import { badRequest } from '../status';
import { truncateForMessage } from '../status/quote';

/**
 * Bounds on decoding a request body. A body is already bounded in bytes; these bound what the bytes may
 * expand into.
 *
 * - `maxDepth`: objects and arrays nested deeper than this are refused. A TenantNamespace is four levels
 *   deep and kube objects rarely pass twenty; 100 leaves room for any real object while keeping every
 *   recursive walk (validation, messages, encoding) far from the stack limit. (kube-apiserver refuses
 *   JSON deeper than 10000 levels; its types are larger than this one.)
 * - `maxExpandedBytes`: the size, as JSON, of a YAML document once its aliases are expanded. YAML aliases
 *   let a few hundred bytes name gigabytes ("billion laughs"); a document whose expansion is larger than
 *   this is refused as kube's YAML decoder refuses "excessive aliasing".
 */
export interface DecodeLimits {
  maxDepth: number;
  maxExpandedBytes: number;
}

export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxDepth: 100, maxExpandedBytes: 2 * 1024 * 1024 };

function undecodable(detail: string) {
  return badRequest(`the body of the request could not be decoded: ${truncateForMessage(detail, 512)}`);
}

/**
 * The nesting depth of a JSON text, scanned without parsing (strings and escapes skipped), stopping as soon
 * as it passes `limit`. Malformed text is left to the parser.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

type Walk = 'ok' | 'too-deep' | 'too-large';

/**
 * Walks a decoded value as its JSON form would spell it out (a value reached twice through YAML aliases
 * counts twice), without recursion, stopping at the first bound passed.
 */
export function measure(value: unknown, limits: DecodeLimits): Walk {
  let bytes = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
      if (depth + 1 > limits.maxDepth) return 'too-deep';
      bytes += 2;
      if (Array.isArray(v)) {
        for (const item of v) {
          bytes += 1;
          stack.push([item, depth + 1]);
        }
      } else {
        for (const [k, item] of Object.entries(v)) {
          bytes += k.length + 4;
          stack.push([item, depth + 1]);
        }
      }
    } else if (typeof v === 'string') {
      bytes += v.length + 2;
    } else {
      bytes += 8;
    }
    if (bytes > limits.maxExpandedBytes) return 'too-large';
  }
  return 'ok';
}

/**
 * Decodes a request body as JSON or YAML within `limits`. Anything that is not a document of the given
 * type, nests too deeply or expands too far is a 400 BadRequest whose message quotes at most a short
 * piece of the input. YAML is returned as plain JSON data (aliases expanded into copies, timestamps as
 * strings), as kube-apiserver converts YAML to JSON before decoding.
 */
export function decodeBody(text: string, mediaType: 'application/json' | 'application/yaml', limits: DecodeLimits = DEFAULT_DECODE_LIMITS): unknown {
  if (mediaType === 'application/json') {
    if (jsonDepthExceeds(text, limits.maxDepth)) throw undecodable(`object nested deeper than ${limits.maxDepth} levels`);
    try {
      return JSON.parse(text);
    } catch (err) {
      throw undecodable((err as Error).message);
    }
  }
  let value: unknown;
  try {
    value = loadYaml(text, { maxDepth: limits.maxDepth } as Parameters<typeof loadYaml>[1]);
  } catch (err) {
    throw undecodable((err as Error).message);
  }
  const walk = measure(value, limits);
  if (walk === 'too-deep') throw undecodable(`object nested deeper than ${limits.maxDepth} levels`);
  if (walk === 'too-large') throw undecodable(`yaml: document contains excessive aliasing (expands past ${limits.maxExpandedBytes} bytes)`);
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
