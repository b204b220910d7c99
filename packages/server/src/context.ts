import type { FactorServices } from './factors/factors.js';
import type { Brand } from './html/brand.js';
import type { Languages } from './i18n/index.js';
import type { Outbox } from './mail/outbox.js';
import type { OAuthServices } from './oauth/services.js';
import type { SecondFactorPolicy } from './primitives/records.js';

/** What the sign-in pages need besides the OAuth services: the second-factor policy and sealing. */
export interface SignInSettings {
  /** SECOND_FACTOR: the policy of every client that sets none (`optional` by default). */
  readonly secondFactor: SecondFactorPolicy;
  readonly factors: FactorServices;
}

/** How self-service accounts behave (accounts/; docs/accounts.md). */
export interface AccountSettings {
  /** PASSWORD_RESET_REVOKES_GRANTS: a password reset also revokes every grant of the user (on by default). */
  readonly passwordResetRevokesGrants: boolean;
  /** EMAIL_VERIFICATION: `off`, `optional` (default: offered on the account page) or `required`. */
  readonly emailVerification: EmailVerificationMode;
  /** SIGN_UP and SIGN_UP_DOMAINS: who may create an account on the sign-in page (accounts/sign-up.ts). */
  readonly signUp: SignUpSettings;
  /** TERMS_URL and TERMS_VERSION: the terms every user accepts at sign-in; undefined: none asked. */
  readonly terms?: TermsSettings;
}

/** The terms a user accepts at sign-in: where the document is, and its version (a new one asks again). */
export interface TermsSettings {
  readonly url: string;
  readonly version: string;
}

/** SIGN_UP's values: `off` (default), `open` to anyone, `invite` only through an invitation. */
export const SIGN_UP_MODES = ['off', 'open', 'invite'] as const;
export type SignUpMode = (typeof SIGN_UP_MODES)[number];

/** SIGN_UP_METHODS' values: what a new account signs in with, chosen on the sign-up form. */
export const SIGN_UP_METHODS = ['password', 'passkey'] as const;
export type SignUpMethod = (typeof SIGN_UP_METHODS)[number];

export interface SignUpSettings {
  readonly mode: SignUpMode;
  /** SIGN_UP_DOMAINS: the e-mail domains an address may have, lowercase; empty: any. */
  readonly domains: readonly string[];
  /**
   * SIGN_UP_METHODS: a password, a passkey, or either; unset: a password. A passkey only where the
   * issuer can have one (webauthn/relying-party.ts): elsewhere the form offers the password alone.
   */
  readonly methods?: readonly SignUpMethod[];
}

/** EMAIL_VERIFICATION's values. */
export const EMAIL_VERIFICATION_MODES = ['off', 'optional', 'required'] as const;
export type EmailVerificationMode = (typeof EMAIL_VERIFICATION_MODES)[number];

/**
 * What the endpoints need, passed to them explicitly: the authorization server's services, and
 * the sign-in settings the authorization pages read.
 */
export interface ServerContext extends OAuthServices {
  readonly signIn: SignInSettings;
  /** The mail outbox: features queue their messages in it (mail/outbox.ts). */
  readonly mail: Outbox;
  /** The languages of the pages (i18n/): the compiled catalogs and DEFAULT_LOCALE. */
  readonly languages: Languages;
  readonly accounts: AccountSettings;
  /** The product's name, logo, favicon and colours on every page and in mails (BRAND_*, branding/). */
  readonly brand: Brand;
}
