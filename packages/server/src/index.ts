/**
 * The programmatic surface of @gatehouse/server: open a store, build the context the endpoints
 * share, register clients, issue grants, and start the server. The `gatehouse` CLI is built on
 * the same functions; the benchmark (bench/) uses them to set up its data.
 */
export { startServer, createContext, type ContextOptions, type StartOptions, type RunningServer } from './server.js';
export { DEFAULT_RATE_LIMITS, type RateLimitPolicies } from './rate-limits.js';
export { openStore } from './store/open.js';
export type { Store } from './store/store.js';
export { registerClient, type ClientRegistration } from './oauth/clients/index.js';
export { issueOperatorGrant } from './oauth/grant-administration/index.js';
export { addUser } from './users/users.js';
