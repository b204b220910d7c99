import { acrValuesAskMfa, isMultiFactorAmr } from '../../primitives/acr.js';
import type { SecondFactorPolicy } from '../../primitives/records.js';
import type { AuthenticationMethodRecord, UserRecord } from '../../store/identity-repository.js';
import type { Store } from '../../store/store.js';
import { SECOND_FACTORS } from './steps/index.js';

/**
 * Whether a sign-in asks a second factor. The policy is the client's `second_factor`,
 * else the server's SECOND_FACTOR; `acr_values` asking `mfa` (OIDC Core §3.1.2.1) raises it to
 * `required` for the request, as does a user an operator made enrol (`users add
 * --require-second-factor`).
 */
export function requestPolicy(
  server: SecondFactorPolicy,
  client: SecondFactorPolicy | undefined,
  acrValues: readonly string[],
): SecondFactorPolicy {
  return acrValuesAskMfa(acrValues) ? 'required' : (client ?? server);
}

/**
 * What a sign-in still needs after a step: nothing, a factor the user chooses, enrolment, or a
 * required action before the session is signed in: EMAIL_VERIFICATION=required's code mailed to
 * the user's address (`email` undefined when the user has none, and then it cannot go on), a new
 * password in place of an operator's temporary one, or the terms (TERMS_URL, TERMS_VERSION) to accept.
 */
export type SecondFactorDue =
  | { readonly kind: 'none' }
  | { readonly kind: 'choose'; readonly factors: readonly string[] }
  | { readonly kind: 'enrol' }
  | { readonly kind: 'verify_email'; readonly email: string | undefined }
  | { readonly kind: 'change_password' }
  | { readonly kind: 'accept_terms'; readonly url: string; readonly version: string };

/** What the server's settings make required of every user at sign-in (besides a second factor). */
export interface RequiredActionSettings {
  /** EMAIL_VERIFICATION=required: a user with an unverified address verifies it. */
  readonly emailRequired: boolean;
  /** TERMS_URL and TERMS_VERSION: a user who has not accepted this version accepts it. */
  readonly terms?: { readonly url: string; readonly version: string };
}

/**
 * The required actions a user has before the enrolment of a second factor, in order: verifying its
 * address (EMAIL_VERIFICATION=required), then replacing an operator's temporary password.
 */
export function requiredActionDue(
  user: UserRecord,
  actions: RequiredActionSettings,
): Extract<SecondFactorDue, { kind: 'verify_email' | 'change_password' }> | undefined {
  if (actions.emailRequired && user.claims.email_verified !== true) {
    const email = typeof user.claims.email === 'string' ? user.claims.email : undefined;
    return { kind: 'verify_email', email };
  }
  if (user.passwordTemporary === true) return { kind: 'change_password' };
  return undefined;
}

/** The terms a user has still to accept: TERMS_VERSION when it is not the version the user accepted last. */
export function termsDue(
  user: UserRecord,
  actions: RequiredActionSettings,
): Extract<SecondFactorDue, { kind: 'accept_terms' }> | undefined {
  const { terms } = actions;
  if (terms === undefined || user.termsAccepted?.version === terms.version) return undefined;
  return { kind: 'accept_terms', url: terms.url, version: terms.version };
}

/**
 * What a sign-in needs after a passed step, in a fixed order: an enrolled second factor to choose
 * (the user proves who it is first), then the required actions (verifying the address, replacing a
 * temporary password), then enrolment of a second factor when the policy requires one the user does
 * not have, then the terms to accept.
 */
export async function nextDue(
  store: Store,
  user: UserRecord,
  policy: SecondFactorPolicy,
  methods: readonly AuthenticationMethodRecord[],
  actions: RequiredActionSettings,
): Promise<SecondFactorDue> {
  const factor = await secondFactorDue(store, user, policy, methods);
  if (factor.kind === 'choose') return factor;
  const action = requiredActionDue(user, actions);
  if (action) return action;
  if (factor.kind === 'enrol') return factor;
  return termsDue(user, actions) ?? factor;
}

/**
 * Whether the methods done count two factors or more (RFC 8176 §2 "mfa"): two distinct methods,
 * e.g. `pwd` and `otp`, or a passkey's `hwk` and `user`; an upstream's `mfa`; a federated `fed`
 * only when the upstream named no factor of its own (`isMultiFactorAmr`).
 */
export function isMultiFactor(methods: readonly AuthenticationMethodRecord[]): boolean {
  return isMultiFactorAmr(methods.map((m) => m.method));
}

/** The second factors `user` has enrolled, in the table's order. */
export async function enrolledFactors(store: Store, user: UserRecord): Promise<string[]> {
  const names: string[] = [];
  for (const [name, factor] of Object.entries(SECOND_FACTORS)) if (await factor.enrolled(user, store)) names.push(name);
  return names;
}

/**
 * What a sign-in of `user` that did `methods` still needs under `policy`: `off` nothing; `optional`
 * a factor the user has enrolled (none when it has none); `required` a factor, enrolled now when the
 * user has none. A multi-factor sign-in needs nothing more.
 */
export async function secondFactorDue(
  store: Store,
  user: UserRecord,
  policy: SecondFactorPolicy,
  methods: readonly AuthenticationMethodRecord[],
): Promise<SecondFactorDue> {
  const effective = user.secondFactorRequired === true ? 'required' : policy;
  if (effective === 'off' || isMultiFactor(methods)) return { kind: 'none' };
  const factors = await enrolledFactors(store, user);
  if (factors.length > 0) return { kind: 'choose', factors };
  return effective === 'required' ? { kind: 'enrol' } : { kind: 'none' };
}

/**
 * What a pending session stopped at, from what it did and the policy of the request it goes on with
 * (the session keeps none): a factor to choose while it proved one factor only, then the required
 * actions, enrolment when that policy requires it, and the terms.
 */
export function pendingDue(
  store: Store,
  user: UserRecord,
  methods: readonly AuthenticationMethodRecord[],
  actions: RequiredActionSettings,
  policy: SecondFactorPolicy,
): Promise<SecondFactorDue> {
  return nextDue(store, user, policy, methods, actions);
}
