/**
 * The JSONPath of CustomResourceDefinition printer columns, as kube-apiserver evaluates it
 * (k8s.io/client-go/util/jsonpath with missing keys allowed): fields (`.status.size`), indexes (`[0]`,
 * `[-1]`), every element (`[*]`) and equality filters (`[?(@.type=="Ready")]`). A path that reaches
 * nothing gives no result; a path outside this subset is refused when the column is built.
 */
type Step = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; value: unknown } };

const STEP = /^(?:\.([A-Za-z0-9_-]+)|\[(-?\d+)\]|\[\*\]|\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*("(?:[^"\\]|\\.)*"|'[^']*'|-?\d+(?:\.\d+)?|true|false)\)\])/;

function parse(path: string): Step[] {
  const steps: Step[] = [];
  let rest = path.trim();
  while (rest) {
    const m = STEP.exec(rest);
    if (!m) throw new Error(`unsupported JSONPath ${JSON.stringify(path)} at ${JSON.stringify(rest)}`);
    if (m[1] !== undefined) steps.push({ field: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ filter: { path: m[3].slice(1).split('.'), value: literal(m[4]!) } });
    else steps.push({ all: true });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

function literal(text: string): unknown {
  if (text.startsWith("'")) return text.slice(1, -1);
  return JSON.parse(text);
}

const fieldOf = (v: unknown, f: string): unknown => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[f] : undefined);

/** A compiled JSONPath: every value it reaches in an object, in document order. */
export function compileJsonPath(path: string): (obj: unknown) => unknown[] {
  const steps = parse(path);
  return (obj) => {
    let values: unknown[] = [obj];
    for (const step of steps) {
      const next: unknown[] = [];
      for (const v of values) {
        if ('field' in step) {
          const f = fieldOf(v, step.field);
          if (f !== undefined) next.push(f);
        } else if (Array.isArray(v)) {
          if ('index' in step) {
            const i = step.index < 0 ? v.length + step.index : step.index;
            if (i >= 0 && i < v.length) next.push(v[i]);
          } else if ('all' in step) next.push(...v);
          else next.push(...v.filter((e) => step.filter.path.reduce<unknown>(fieldOf, e) === step.filter.value));
        }
      }
      values = next;
    }
    return values;
  };
}
