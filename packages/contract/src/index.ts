export * from './errors/index.js';
export * from './openapi/index.js';
export * from './wire/index.js';
