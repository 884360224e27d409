/**
 * One clause of an `Accept` header: `type/subtype;param=value;q=0.5`.
 * Parameter names and values are kept as sent (no case folding, no unquoting), as kube-apiserver does.
 */
export interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Readonly<Record<string, string>>;
}

/**
 * Parses an `Accept` header into clauses in the order kube-apiserver tries them (github.com/munnerz/goautoneg,
 * which k8s.io/apiserver uses): higher q first, then concrete types before `*`; otherwise in header order.
 * Malformed clauses (`a/b/c`, a type without subtype other than `*`) are dropped; a parameter without `=`
 * is ignored; a bad q reads as 0. The sort is an insertion sort with goautoneg's comparison so that ties
 * keep header order exactly as Go's sort.Sort does for short headers.
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = trimSpaces(rawPart);
    const [mediaRange = '', ...paramParts] = split1(part, ';');
    const [rawType = '', rest] = split1(mediaRange, '/');
    const type = trimSpaces(rawType);
    let subType: string;
    if (rest === undefined || rest === '') {
      if (type !== '*') continue;
      subType = '*';
    } else {
      const [rawSub = '', extra] = split1(rest, '/');
      if (extra !== undefined && extra !== '') continue;
      subType = trimSpaces(rawSub);
    }
    let q = 1;
    const params: Record<string, string> = {};
    for (const param of paramParts.length ? paramParts[0]!.split(';') : []) {
      const eq = param.split('=');
      if (eq.length !== 2 || eq[1] === '') continue;
      const key = trimSpaces(eq[0]!);
      if (key === 'q') {
        q = FLOAT.test(eq[1]!) ? Number(eq[1]) : 0;
      } else {
        params[key] = trimSpaces(eq[1]!);
      }
    }
    clauses.push({ type, subType, q, params });
  }
  // Insertion sort with goautoneg's Less(i, j).
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
    }
  }
  return clauses;
}

/** What Go's strconv.ParseFloat reads in a q-value (decimal forms); anything else gives 0. */
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** goautoneg's ordering: note that a lower q does not make a clause greater, only a higher q less. */
function less(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subType !== '*' && b.subType === '*') return true;
  return false;
}

/** Splits at the first separator: `[before, after]`, or `[s]` when absent. */
function split1(s: string, sep: string): [string, string?] {
  const i = s.indexOf(sep);
  return i === -1 ? [s] : [s.slice(0, i), s.slice(i + 1)];
}

/** goautoneg trims spaces only, not tabs. */
function trimSpaces(s: string): string {
  return s.replace(/^ +| +$/g, '');
}
