/**
 * The Authentication Context Class References this server answers (OIDC Core §2 `acr`, §3.1.2.1
 * `acr_values`): `mfa` when the sign-in used two factors or more (its `amr` says `mfa`, RFC 8176
 * §2), `sfa` otherwise. Listed as `acr_values_supported` (OIDC Discovery §3).
 */
export const ACR_VALUES = ['sfa', 'mfa'] as const;
export type AcrValue = (typeof ACR_VALUES)[number];

/**
 * The `amr` values a local second factor records (RFC 8176 §2): they never stand for how an
 * upstream identity provider authenticated the user.
 */
const LOCAL_SECOND_FACTOR_AMR: ReadonlySet<string> = new Set(['otp', 'hwk', 'swk', 'user']);

/**
 * Whether a sign-in's `amr` values (RFC 8176 §2) count two factors or more: `mfa` said (by an
 * upstream identity provider, say), or two distinct values (`pwd` and `otp`; a passkey's `hwk` and
 * `user`). A federated sign-in records `fed` and the upstream's own values: `fed` stands for the
 * upstream's authentication, so it is not counted beside the values that name it (`fed` with `pwd`
 * is one factor, a password at the upstream), only when the upstream named none or only local
 * second factors follow it (`fed` then a local `otp` is two). See docs/federation.md.
 */
export function isMultiFactorAmr(amr: readonly string[]): boolean {
  if (amr.includes('mfa')) return true;
  const values = new Set(amr);
  if (values.has('fed') && [...values].some((v) => v !== 'fed' && !LOCAL_SECOND_FACTOR_AMR.has(v)))
    values.delete('fed');
  return values.size >= 2;
}

/**
 * Whether an upstream identity provider's `acr` (OIDC Core §2: its own Authentication Context Class
 * Reference, with no meaning here by itself) is one the operator maps as multi-factor for that
 * provider (`mfa_acr_values`, docs/federation.md). A federated sign-in with such an `acr` records
 * `mfa` (RFC 8176 §2) beside `fed`, so `isMultiFactorAmr` and `acrOf` count it as two factors.
 */
export function isMultiFactorUpstreamAcr(acr: string | undefined, mfaAcrValues: readonly string[]): boolean {
  return acr !== undefined && mfaAcrValues.includes(acr);
}

/** The `acr` of a sign-in from its `amr` values. */
export function acrOf(amr: readonly string[]): AcrValue {
  return amr.includes('mfa') ? 'mfa' : 'sfa';
}

/**
 * Whether `acr_values` asks for a multi-factor sign-in: every value this server knows in it is
 * `mfa` (§3.1.2.1: the values are in order of preference, and one the server cannot satisfy
 * may be passed over; an `sfa` listed says a single factor is acceptable). Unknown values are ignored.
 */
export function acrValuesAskMfa(acrValues: readonly string[]): boolean {
  const known = acrValues.filter((v) => (ACR_VALUES as readonly string[]).includes(v));
  return known.length > 0 && known.every((v) => v === 'mfa');
}
