import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Tells whoever runs a unit of work that the unit is about to wait for the network. A scheduler that
 * runs units one at a time (controller/event-loop-slice.ts) runs each under `onIoWait`, and the client
 * calls `waitingForIo` before each request it sends: the next unit need not wait for the answer.
 * Outside such a unit it does nothing.
 */
const hooks = new AsyncLocalStorage<() => void>();

/** Runs `fn` with `hook` called (each time) when it, or anything it awaits, is about to wait for I/O. */
export function onIoWait<T>(hook: () => void, fn: () => T): T {
  return hooks.run(hook, fn);
}

/** The current unit of work is about to wait for the network. */
export function waitingForIo(): void {
  hooks.getStore()?.();
}
