export * from './authorization-header.js';
export * from './challenge.js';
export type * from './claims.js';
export * from './dpop.js';
export * from './refusals.js';
export * from './scope.js';
export * from './verifier.js';
