import { ENDPOINT_RATE_LIMITS, type EndpointRateLimitName } from '../oauth/endpoints/index.js';
import type { RatePolicy } from '../store/rate-limits.js';
import { parseRatePolicy, per } from './rate-policies.js';

/**
 * The rate limits Gatehouse enforces, each set by `RATE_LIMIT_<NAME>` (e.g.
 * `RATE_LIMIT_TOKEN_ADDRESS=600/min`, or `off`); `RATE_LIMITS=off` turns them all off.
 *
 * - `<endpoint>_client`, `<endpoint>_address`: requests to each client-authenticating OAuth
 *   endpoint (`token`, `introspect`, `revoke`), per authenticated client and per client address,
 *   declared with the endpoint in `oauth/endpoints/`. A request whose client fails to authenticate
 *   counts for its address only, so nobody can use up a client's budget without its secret.
 * - `login_*`: sign-in attempts (POST /login), per OAuth client of the authorization request and per
 *   address.
 * - `login_failure_*`: failed sign-ins, per username and per address: past the limit, the sign-in
 *   form is refused before any password is checked (NIST SP 800-63B §5.2.2, OWASP ASVS V2.2.1).
 * - `user_code_*`: user codes typed on the device page (/device), every attempt and every wrong code
 *   per address: past the failure limit the page checks no code, so nobody can guess the codes of
 *   other people's devices (RFC 8628 §5.1).
 */
const SIGN_IN_RATE_LIMITS = {
  login_client: per(600, 'min'),
  login_address: per(60, 'min'),
  login_failure_user: per(10, 'h'),
  login_failure_address: per(100, 'h'),
} as const;

const USER_CODE_RATE_LIMITS = {
  user_code_address: per(60, 'min'),
  user_code_failure_address: per(20, 'h'),
} as const;

export type RateLimitName =
  EndpointRateLimitName | keyof typeof SIGN_IN_RATE_LIMITS | keyof typeof USER_CODE_RATE_LIMITS;

/** A policy per limit; null when that limit is off. */
export type RateLimitPolicies = { readonly [N in RateLimitName]: RatePolicy | null };

/**
 * Generous for the traffic of real clients (a backend refreshing for many users shares one client
 * and often one address), tight for guessing passwords.
 */
export const DEFAULT_RATE_LIMITS: RateLimitPolicies = {
  ...ENDPOINT_RATE_LIMITS,
  ...SIGN_IN_RATE_LIMITS,
  ...USER_CODE_RATE_LIMITS,
};

export const RATE_LIMIT_NAMES = Object.keys(DEFAULT_RATE_LIMITS) as readonly RateLimitName[];

export const NO_RATE_LIMITS: RateLimitPolicies = Object.fromEntries(
  RATE_LIMIT_NAMES.map((name) => [name, null]),
) as RateLimitPolicies;

export { parseRatePolicy };

/** `RATE_LIMITS=off`, then each `RATE_LIMIT_<NAME>` over the defaults. */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimitPolicies {
  const all = env.RATE_LIMITS?.trim();
  if (all !== undefined && all !== '' && all !== 'on' && all !== 'off') {
    throw new Error(`RATE_LIMITS is on or off, got ${JSON.stringify(env.RATE_LIMITS)}`);
  }
  const base = all === 'off' ? NO_RATE_LIMITS : DEFAULT_RATE_LIMITS;
  const policies: Record<string, RatePolicy | null> = { ...base };
  for (const name of RATE_LIMIT_NAMES) {
    const variable = `RATE_LIMIT_${name.toUpperCase()}`;
    const value = env[variable];
    if (value === undefined || value === '') continue;
    try {
      policies[name] = parseRatePolicy(value);
    } catch (error) {
      throw new Error(`${variable}: ${(error as Error).message}`);
    }
  }
  return policies as RateLimitPolicies;
}
