/** The structured logger Paddock's components accept; the default writes one JSON line per entry to stderr. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** A JSON-lines logger tagged with `component`. */
export function jsonLogger(component: string): Logger {
  const write = (level: string, msg: string, fields?: Record<string, unknown>): void => {
    const entry: Record<string, unknown> = { ts: new Date().toISOString(), level, component, msg, ...fields };
    for (const [k, v] of Object.entries(entry)) if (v instanceof Error) entry[k] = v.message;
    process.stderr.write(`${JSON.stringify(entry)}\n`);
  };
  return {
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
