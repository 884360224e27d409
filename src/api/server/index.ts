export { ApiServer } from './server';
export { complete } from './config';
