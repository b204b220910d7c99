/**
 * The OAuth response bodies the server sends and the client reads. The error bodies are with their
 * catalogs: `OAuthErrorBody` (RFC 6749 §5.2) in errors/oauth.ts, `ProblemBody` (RFC 9457) in
 * errors/problems.ts.
 */
export * from './token-response.js';
export * from './introspection-response.js';
export * from './device-authorization-response.js';
