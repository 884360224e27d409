import { logger, type Logger } from '../log/logger';

export type { Logger };

/** A JSON-lines logger tagged with `component` (see src/log/logger.ts). */
export function jsonLogger(component: string): Logger {
  return logger({ component });
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, with: () => silentLogger };
