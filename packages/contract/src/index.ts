export * from './errors/index.js';
export * from './openapi/index.js';
export * from './wire/index.js';
export * from './access-token/index.js';
export * from './client-authentication/index.js';
export * from './redirect-uris/index.js';
