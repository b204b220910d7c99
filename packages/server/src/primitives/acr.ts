/**
 * The Authentication Context Class References this server answers (OIDC Core §2 `acr`, §3.1.2.1
 * `acr_values`): `mfa` when the sign-in used two factors or more (its `amr` says `mfa`, RFC 8176
 * §2), `sfa` otherwise. Listed as `acr_values_supported` (OIDC Discovery §3).
 */
export const ACR_VALUES = ['sfa', 'mfa'] as const;
export type AcrValue = (typeof ACR_VALUES)[number];

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
