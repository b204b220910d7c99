import { OperatorInputError } from '../primitives/operator-input-error.js';
import type { UserClaims, UserRecord } from '../store/identity-repository.js';

/** The string claims an operator sets, by their `gatehouse users add/update` option. */
const STRING_CLAIMS = {
  name: 'name',
  'given-name': 'given_name',
  'family-name': 'family_name',
  'preferred-username': 'preferred_username',
  email: 'email',
  locale: 'locale',
} as const;

/** The options `gatehouse users add` and `update` take for the claims. */
export const CLAIM_OPTIONS = {
  ...Object.fromEntries(Object.keys(STRING_CLAIMS).map((option) => [option, { type: 'string' as const }])),
  'email-verified': { type: 'string' as const },
} as Record<keyof typeof STRING_CLAIMS | 'email-verified', { type: 'string' }>;

/** The claims named by the options given, over `base`; an empty option removes its claim. */
export function claimsFromOptions(
  values: Partial<Record<string, string | boolean>>,
  base: UserClaims = {},
): UserClaims {
  const claims: Record<string, string | boolean | undefined> = { ...base };
  for (const [option, claim] of Object.entries(STRING_CLAIMS)) {
    const value = values[option];
    if (typeof value === 'string') claims[claim] = value;
  }
  const verified = values['email-verified'];
  if (typeof verified === 'string') {
    if (verified !== 'true' && verified !== 'false') throw new OperatorInputError('--email-verified is true or false');
    claims.email_verified = verified === 'true';
  }
  return checkedClaims(claims);
}

/**
 * The claims as they are stored: each string trimmed and in NFC (an empty one removes its claim),
 * the email checked. The CLI's options and the admin API's bodies both end here.
 */
export function checkedClaims(given: Readonly<Record<string, string | boolean | undefined>>): UserClaims {
  const claims: Record<string, string | boolean> = {};
  for (const claim of Object.values(STRING_CLAIMS)) {
    const value = given[claim];
    if (typeof value === 'string' && value.trim() !== '') claims[claim] = value.trim().normalize('NFC');
  }
  if (typeof claims.email === 'string' && !/^[^\s@]+@[^\s@]+$/.test(claims.email))
    throw new OperatorInputError(`'${claims.email}' is not an email address`);
  if (typeof claims.locale === 'string') claims.locale = canonicalLocale(claims.locale);
  if (typeof given.email_verified === 'boolean') claims.email_verified = given.email_verified;
  return claims;
}

/** The claims each scope releases (OIDC Core §5.4), in the order the consent page lists them. */
export const SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale', 'updated_at'],
  email: ['email', 'email_verified'],
};

/**
 * OIDC Core §5.1 `locale`: a BCP 47 language tag (RFC 5646), stored in its canonical form
 * (`pt-br` -> `pt-BR`); the pages speak it when it is one of theirs (i18n/), whatever it is.
 */
function canonicalLocale(value: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(value.replace(/_/g, '-'));
    if (canonical !== undefined) return canonical;
  } catch {
    // refused below
  }
  throw new OperatorInputError(`'${value}' is not a BCP 47 language tag (such as de, pt-BR or zh-CN)`);
}

/** A user's `locale` claim, when it has one. */
export function localeClaimOf(user: Pick<UserRecord, 'claims'>): string | undefined {
  return user.claims.locale;
}

/**
 * The claims of `user` that `scope` releases (OIDC Core §5.4): `sub` always, the rest only when the
 * user has them. `updated_at` is the time the user's record last changed (§5.1: seconds).
 */
export function releasedClaims(user: UserRecord, scope: readonly string[]): Record<string, unknown> {
  const all: Record<string, unknown> = { ...user.claims, updated_at: user.updatedAt };
  const released: Record<string, unknown> = { sub: user.subject };
  for (const name of scope.flatMap((s) => SCOPE_CLAIMS[s] ?? []))
    if (all[name] !== undefined) released[name] = all[name];
  return released;
}
