import { Registry } from 'prom-client';

/**
 * The one prom-client registry every Paddock metric is registered in; `/metrics` serves it. Metrics are
 * module-level singletons defined in this folder, one file per concern, all named `paddock_*`.
 */
export const registry = new Registry();
