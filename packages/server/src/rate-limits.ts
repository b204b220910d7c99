import {
  ABUSE_RATE_LIMITS,
  parseRatePolicy,
  rateLimitsFromEnv as limitsFromEnv,
  type AbuseRateLimitName,
} from './abuse/policies.js';
import { ENDPOINT_RATE_LIMITS, type EndpointRateLimitName } from './oauth/endpoints/index.js';
import type { RatePolicy } from './store/rate-limits.js';

/**
 * Every rate limit of the server: the OAuth endpoints' (declared with each endpoint in
 * `oauth/endpoints/`) and the sign-in and device-page limits (`abuse/policies.ts`). Composed here,
 * above both, so that abuse/ does not import the features it protects.
 */
export type RateLimitName = EndpointRateLimitName | AbuseRateLimitName;

/** A policy per limit; null when that limit is off. */
export type RateLimitPolicies = { readonly [N in RateLimitName]: RatePolicy | null };

/**
 * Generous for the traffic of real clients (a backend refreshing for many users shares one client
 * and often one address), tight for guessing passwords.
 */
export const DEFAULT_RATE_LIMITS: RateLimitPolicies = { ...ENDPOINT_RATE_LIMITS, ...ABUSE_RATE_LIMITS };

export const RATE_LIMIT_NAMES = Object.keys(DEFAULT_RATE_LIMITS) as readonly RateLimitName[];

export const NO_RATE_LIMITS: RateLimitPolicies = Object.fromEntries(
  RATE_LIMIT_NAMES.map((name) => [name, null]),
) as RateLimitPolicies;

export { parseRatePolicy };

/** `RATE_LIMITS=off`, then each `RATE_LIMIT_<NAME>` over the defaults. */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimitPolicies {
  return limitsFromEnv(env, DEFAULT_RATE_LIMITS, NO_RATE_LIMITS);
}
