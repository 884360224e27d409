import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { preProcessFile } from 'typescript';

/**
 * The program's source files (tests, and test helpers under testing/, left out) and the files each
 * imports, type-only imports and re-exports included, by path from src/.
 */
function imports(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing') walk(path);
      } else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) files.push(path);
    }
  };
  walk(__dirname);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
      .filter((i) => i.fileName.startsWith('.'))
      .map((i) => {
        const base = resolve(dirname(file), i.fileName);
        return existsSync(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
      });
    graph.set(relative(__dirname, file), targets.map((t) => relative(__dirname, t)));
  }
  return graph;
}

const graph = imports();
const folder = (path: string) => path.split('/')[0]!;

/** The imports that go from a file under `from` into a file under one of `into`. */
function crossing(from: string, into: readonly string[]): string[] {
  return [...graph].filter(([file]) => folder(file) === from)
    .flatMap(([file, targets]) => targets.filter((t) => into.includes(folder(t))).map((t) => `${file} → ${t}`));
}

describe('the dependencies of the source', () => {
  it('form no cycle, type-only imports included', () => {
    const inCycle = [...graph.keys()].filter((file) => {
      const seen = new Set<string>();
      const stack = [...(graph.get(file) ?? [])];
      while (stack.length > 0) {
        const next = stack.pop()!;
        if (next === file) return true;
        if (!seen.has(next)) seen.add(next), stack.push(...(graph.get(next) ?? []));
      }
      return false;
    });
    expect(inCycle).toEqual([]);
  });

  it('run one way: the cache knows nothing of tenancy, and neither of them knows the API or the controller', () => {
    expect(crossing('kube', ['cache', 'tenancy', 'controller', 'api', 'rbac'])).toEqual([]);
    expect(crossing('cache', ['tenancy', 'controller', 'api', 'rbac'])).toEqual([]);
    expect(crossing('tenancy', ['controller', 'api', 'rbac'])).toEqual([]);
  });

  it('run one way inside the API: resources → storage, and the framework knows no resource', () => {
    const part = (file: string) => (file.startsWith('api/storage/') ? 'storage' : file.startsWith('api/resources/') ? 'resources' : 'framework');
    const into = (from: string, to: readonly string[]) => [...graph].filter(([file]) => folder(file) === 'api' && part(file) === from)
      .flatMap(([file, targets]) => targets.filter((t) => folder(t) === 'api' && to.includes(part(t))).map((t) => `${file} → ${t}`));
    expect(into('storage', ['resources', 'framework'])).toEqual([]);
    expect(into('framework', ['resources'])).toEqual([]);
  });

  it('leave the wiring of the controller to main.ts', () => {
    const outside = [...graph.keys()].map(folder).filter((f) => f !== 'controller' && f !== 'main.ts');
    expect([...new Set(outside)].flatMap((f) => crossing(f, ['controller']))).toEqual([]);
  });
});
