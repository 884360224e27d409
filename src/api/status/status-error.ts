import type { Status } from '../../kube/types';

/**
 * An error that carries the Kubernetes `Status` to answer with. Handlers `throw` one of the catalog's
 * errors (see catalog.ts); the one place that renders responses turns it into the HTTP status `code`,
 * a `Retry-After` header when `details.retryAfterSeconds` is set, and the JSON `body`.
 *
 * The Status is frozen and its JSON is computed once, on first use.
 */
export class StatusError extends Error {
  readonly status: Readonly<Status>;
  #body: string | undefined;

  constructor(status: Status) {
    super(status.message ?? status.reason ?? 'Failure');
    this.name = 'StatusError';
    this.status = deepFreeze(status);
  }

  /** The HTTP status code, equal to `status.code`. */
  get code(): number {
    return this.status.code;
  }

  /** The `reason` (`NotFound`, `Forbidden`, `Expired`, ...). */
  get reason(): string {
    return this.status.reason ?? 'Unknown';
  }

  /** The Status serialized as JSON, in kube's field order. */
  get body(): string {
    this.#body ??= JSON.stringify(this.status);
    return this.#body;
  }

  /** The value of the `Retry-After` header kube-apiserver sends with this error, if any. */
  get retryAfter(): string | undefined {
    const seconds = this.status.details?.retryAfterSeconds;
    return seconds !== undefined && seconds > 0 ? String(seconds) : undefined;
  }
}

/** True for a StatusError, also one thrown by another copy of this module. */
export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError || (err instanceof Error && err.name === 'StatusError' && typeof (err as StatusError).status === 'object');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
