/**
 * @gatehouse/resource-server: protects your own API with Gatehouse. The core is framework-free;
 * `@gatehouse/resource-server/express` and `@gatehouse/resource-server/fastify` adapt it.
 */
export {
  createResourceServer,
  type ApiRequest,
  type ResourceServer,
  type ResourceServerOptions,
  type Verdict,
} from './resource-server.js';
export type { AccessTokenClaims } from './access-tokens.js';
export type { IntrospectionOptions } from './introspection.js';
export { memoryReplayCheck, type DpopOptions, type DpopReplayCheck } from './dpop.js';
export type { DpopNonceOptions } from './dpop-nonces.js';
export type { Operation } from './operations.js';
export { BearerChallenge, problemResponse, type ProblemResponse } from './problems.js';
