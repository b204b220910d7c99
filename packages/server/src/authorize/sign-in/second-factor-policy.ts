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

/** What a sign-in still needs after its first factor: nothing, a factor the user chooses, or enrolment. */
export type SecondFactorDue =
  | { readonly kind: 'none' }
  | { readonly kind: 'choose'; readonly factors: readonly string[] }
  | { readonly kind: 'enrol' };

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
