/** The Status error catalog: import errors from here. */
export * from './catalog';
export * from './field-errors';
export { StatusError, isStatusError } from './status-error';
