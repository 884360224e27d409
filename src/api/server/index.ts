export { ApiServer } from './server';
export { complete } from './server-config';
