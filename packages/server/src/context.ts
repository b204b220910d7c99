import type { RateLimiter } from './abuse/rate-limiter.js';
import type { AccessTokens } from './oauth/access-tokens.js';
import type { Clock } from './primitives/clock.js';
import type { KeyRing } from './oauth/keys.js';
import type { Store } from './store/store.js';

/** What the endpoints need, passed to them explicitly. */
export interface ServerContext {
  readonly store: Store;
  readonly clock: Clock;
  /** The issuer identifier and the base of every URL the server names (RFC 8414 §2). */
  readonly issuer: string;
  readonly keys: KeyRing;
  readonly accessTokens: AccessTokens;
  readonly rateLimits: RateLimiter;
}
