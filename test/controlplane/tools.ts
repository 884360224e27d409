import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ENV = { helm: 'PADDOCK_HELM' } as const;

/**
 * A command-line tool built from its upstream Go module by build-tool.sh (helm): the path in
 * $PADDOCK_HELM (npm test builds it before Jest starts), else the cached binary,
 * built on first use (minutes) and found at once afterwards.
 */
export function toolBinary(name: keyof typeof ENV): string {
  const given = process.env[ENV[name]];
  if (given) return given;
  const out = execFileSync('bash', [join(__dirname, 'build-tool.sh'), name], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: 30 * 60_000 });
  return (process.env[ENV[name]] = out.trim().split('\n').pop()!);
}
