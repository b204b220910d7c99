export * from './errors/index.js';
export * from './openapi/index.js';
