/** Content negotiation of responses (Accept) and request bodies (Content-Type). */
export * from './negotiate';
export { parseAccept } from './accept';
export { parseIncludeObject, type IncludeObject } from './include-object';
