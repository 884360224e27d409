/**
 * The image-reference oracle: kubelet's own parser (github.com/distribution/reference), run as the Go
 * program in test/clients/refcheck. Tests take the name it gives, or its refusal, as the truth.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export interface ParsedReference {
  ref: string;
  /** The repository name kubelet pulls (domain/path, no tag or digest); absent when the parser refuses it. */
  name?: string;
  error?: string;
}

/** Builds (or finds in the cache) the refcheck binary and returns its path. */
export function buildRefcheck(): string {
  const script = resolve(__dirname, 'build-go-client.sh');
  const out = execFileSync('bash', [script, 'refcheck'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10 * 60_000 });
  return out.trim().split('\n').pop()!;
}

/** What kubelet's parser makes of each reference, in order. */
export function parseWithGo(binary: string, refs: string[]): ParsedReference[] {
  const out = execFileSync(binary, { input: JSON.stringify(refs), encoding: 'utf8', maxBuffer: 64 << 20 });
  const parsed = JSON.parse(out) as ParsedReference[];
  if (parsed.length !== refs.length || parsed.some((p, i) => p.ref !== refs[i])) throw new Error('refcheck answered for other references than it was asked');
  return parsed;
}
