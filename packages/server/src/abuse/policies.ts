import type { RatePolicy } from '../store/rate-limits.js';
import { parseRatePolicy, per } from './rate-policies.js';

/**
 * The rate limits Gatehouse enforces (all of them composed in `src/rate-limits.ts`), each set by `RATE_LIMIT_<NAME>` (e.g.
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
 * - `password_reset_*`: requests for a password reset mail (/password-reset), per address and per
 *   account asked for (the username or e-mail address as typed, normalized, whether an account has it
 *   or not: the limit says nothing of which accounts exist), so that nobody floods a person's
 *   mailbox or the outbox.
 * - `email_verification_user`, `email_verification_failure_user`: verification mails asked for one
 *   account, and wrong verification codes typed for it (a six-digit code gets no more guesses).
 * - `sign_up_address`, `sign_up_domain`: sign-ups (/sign-up), per client address and per domain of
 *   the e-mail address typed, whether an account has the address or not.
 * - `email_change_user`: address changes asked for one account on the account page (each mails the
 *   new address and tells the old one), whether another account has the new address or not.
 * - `owner_warning_email`: mails telling an address's owner that someone else typed it (a sign-up, an
 *   address change of another account), per address: whoever repeats it cannot flood that mailbox.
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

const PASSWORD_RESET_RATE_LIMITS = {
  password_reset_address: per(20, 'h'),
  password_reset_account: per(5, 'h'),
} as const;

/** Verification mails asked for one account (each ends the one before), and wrong codes typed for it. */
const EMAIL_VERIFICATION_RATE_LIMITS = {
  email_verification_user: per(5, 'h'),
  email_verification_failure_user: per(10, 'h'),
} as const;

/** Sign-ups (/sign-up), per client address and per e-mail domain of the address typed, an account or not. */
const SIGN_UP_RATE_LIMITS = {
  sign_up_address: per(10, 'h'),
  sign_up_domain: per(50, 'h'),
} as const;

/** Address changes asked for one account (account page). */
const EMAIL_CHANGE_RATE_LIMITS = {
  email_change_user: per(5, 'h'),
} as const;

/** "Someone typed your address" mails to one address's owner: one an hour, however many attempts. */
const OWNER_WARNING_RATE_LIMITS = {
  owner_warning_email: per(1, 'h'),
} as const;

const USER_CODE_RATE_LIMITS = {
  user_code_address: per(60, 'min'),
  user_code_failure_address: per(20, 'h'),
} as const;

/** The limits this folder declares; the endpoints' are declared with them (`oauth/endpoints/`). */
export const ABUSE_RATE_LIMITS = {
  ...SIGN_IN_RATE_LIMITS,
  ...PASSWORD_RESET_RATE_LIMITS,
  ...EMAIL_VERIFICATION_RATE_LIMITS,
  ...SIGN_UP_RATE_LIMITS,
  ...EMAIL_CHANGE_RATE_LIMITS,
  ...OWNER_WARNING_RATE_LIMITS,
  ...USER_CODE_RATE_LIMITS,
} as const;

export type AbuseRateLimitName = keyof typeof ABUSE_RATE_LIMITS;

export { parseRatePolicy };

/**
 * `RATE_LIMITS=off` (every limit of `off`), then each `RATE_LIMIT_<NAME>` over `defaults`: the
 * policies of the limits the server declares (composed in `src/rate-limits.ts`).
 */
export function rateLimitsFromEnv<Name extends string>(
  env: NodeJS.ProcessEnv,
  defaults: { readonly [N in Name]: RatePolicy | null },
  off: { readonly [N in Name]: RatePolicy | null },
): { readonly [N in Name]: RatePolicy | null } {
  const all = env.RATE_LIMITS?.trim();
  if (all !== undefined && all !== '' && all !== 'on' && all !== 'off') {
    throw new Error(`RATE_LIMITS is on or off, got ${JSON.stringify(env.RATE_LIMITS)}`);
  }
  const base = all === 'off' ? off : defaults;
  const policies: Record<string, RatePolicy | null> = { ...base };
  for (const name of Object.keys(defaults)) {
    const variable = `RATE_LIMIT_${name.toUpperCase()}`;
    const value = env[variable];
    if (value === undefined || value === '') continue;
    try {
      policies[name] = parseRatePolicy(value);
    } catch (error) {
      throw new Error(`${variable}: ${(error as Error).message}`);
    }
  }
  return policies as { readonly [N in Name]: RatePolicy | null };
}
