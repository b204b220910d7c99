import type { RatePolicy } from '../store/rate-limits.js';

/**
 * The rate limits Gatehouse enforces, each set by `RATE_LIMIT_<NAME>` (e.g.
 * `RATE_LIMIT_TOKEN_ADDRESS=600/min`, or `off`); `RATE_LIMITS=off` turns them all off.
 *
 * - `token_*`, `introspect_*`: requests to POST /token and POST /introspect, per authenticated
 *   client and per client address. A request whose client fails to authenticate counts for its
 *   address only, so nobody can use up a client's budget without its secret.
 * - `login_*`: sign-in attempts (POST /login), per OAuth client of the authorization request and per
 *   address.
 * - `login_failure_*`: failed sign-ins, per username and per address: past the limit, the sign-in
 *   form is refused before any password is checked (NIST SP 800-63B §5.2.2, OWASP ASVS V2.2.1).
 */
export const RATE_LIMIT_NAMES = [
  'token_client',
  'token_address',
  'introspect_client',
  'introspect_address',
  'login_client',
  'login_address',
  'login_failure_user',
  'login_failure_address',
] as const;

export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

/** A policy per limit; null when that limit is off. */
export type RateLimitPolicies = { readonly [N in RateLimitName]: RatePolicy | null };

const UNITS: Readonly<Record<string, number>> = { s: 1000, min: 60_000, h: 3_600_000 };

const per = (limit: number, unit: keyof typeof UNITS): RatePolicy => ({ limit, periodMs: UNITS[unit] as number });

/**
 * Generous for the traffic of real clients (a backend refreshing for many users shares one client
 * and often one address), tight for guessing passwords.
 */
export const DEFAULT_RATE_LIMITS: RateLimitPolicies = {
  token_client: per(6000, 'min'),
  token_address: per(1200, 'min'),
  introspect_client: per(12_000, 'min'),
  introspect_address: per(6000, 'min'),
  login_client: per(600, 'min'),
  login_address: per(60, 'min'),
  login_failure_user: per(10, 'h'),
  login_failure_address: per(100, 'h'),
};

export const NO_RATE_LIMITS: RateLimitPolicies = Object.fromEntries(
  RATE_LIMIT_NAMES.map((name) => [name, null]),
) as RateLimitPolicies;

/** `<count>/<s|min|h>` (e.g. `1200/min`), or `off`. */
export function parseRatePolicy(text: string): RatePolicy | null {
  const value = text.trim();
  if (value === 'off') return null;
  const match = /^([1-9]\d{0,8})\/(s|min|h)$/.exec(value);
  if (!match) throw new Error(`a rate limit is <count>/<s|min|h> (e.g. 1200/min) or off, got ${JSON.stringify(text)}`);
  return per(Number(match[1]), match[2] as keyof typeof UNITS);
}

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
