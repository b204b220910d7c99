export * from './oauth.js';
export * from './oauth-error.js';
export * from './problems.js';
export * from './problem-error.js';
