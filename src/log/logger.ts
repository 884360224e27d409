/**
 * Structured JSON logs, one object per line on stderr: `{"ts","level","msg",...fields}`. Levels below
 * the configured one are dropped before any formatting work.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `fields` to every line. */
  with(fields: Record<string, unknown>): Logger;
}

let threshold = RANK.info;
let sink: (line: string) => void = (line) => process.stderr.write(line + '\n');

/** Sets the process-wide level and, for tests, where lines go. */
export function configureLogging(level: LogLevel, output?: (line: string) => void): void {
  threshold = RANK[level];
  if (output) sink = output;
}

function serializeError(value: unknown): unknown {
  return value instanceof Error ? { message: value.message, name: value.name } : value;
}

export function logger(base: Record<string, unknown> = {}): Logger {
  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < threshold) return;
    const record: Record<string, unknown> = { ts: new Date().toISOString(), level, msg, ...base };
    if (fields) for (const [k, v] of Object.entries(fields)) record[k] = serializeError(v);
    sink(JSON.stringify(record));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    with: (fields) => logger({ ...base, ...fields }),
  };
}
