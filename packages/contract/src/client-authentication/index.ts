export * from './basic-credentials.js';
