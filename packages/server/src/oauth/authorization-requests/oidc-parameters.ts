import { OAuthError } from '@gatehouse/contract';

/** The OpenID Connect parameters of an authentication request (OIDC Core §3.1.2.1). */
export interface OidcParameters {
  /** The request has the `openid` scope: an ID token comes with the tokens. */
  readonly openid: boolean;
  readonly nonce: string | undefined;
  /** `none`, `login`, `consent` (`select_account` has nothing to select: one account per browser). */
  readonly prompt: ReadonlySet<string>;
  /** Seconds; the user signs in again when the sign-in is older. */
  readonly maxAge: number | undefined;
  readonly loginHint: string | undefined;
  readonly idTokenHint: string | undefined;
  /** `acr_values`, in order of preference (§3.1.2.1); `mfa` asks for a second factor (primitives/acr.ts). */
  readonly acrValues: readonly string[];
  /**
   * `ui_locales`: the languages the pages should speak, space-separated BCP 47 tags in order of
   * preference, as sent; an unsupported one is no error (§3.1.2.1), the pages take the first they speak.
   */
  readonly uiLocales: string | undefined;
}

const PROMPT_VALUES = new Set(['none', 'login', 'consent', 'select_account']);

/** One value per parameter (the caller refused repeats), undefined when absent or empty. */
type Lookup = (name: string) => string | undefined;

/**
 * Reads and checks the OIDC parameters. Errors here go to the redirect URI like every other
 * after the client and redirect URI (§3.1.2.6).
 */
export function oidcParametersOf(one: Lookup, scope: readonly string[]): OidcParameters | OAuthError {
  const prompt = new Set((one('prompt') ?? '').split(' ').filter((v) => v !== ''));
  // §3.1.2.1: "If this parameter contains none with any other value, an error is returned."
  if (prompt.has('none') && prompt.size > 1) return new OAuthError('prompt_none_combined');
  for (const value of prompt) if (!PROMPT_VALUES.has(value)) prompt.delete(value);
  const maxAgeText = one('max_age');
  if (maxAgeText !== undefined && !/^\d{1,9}$/.test(maxAgeText)) return new OAuthError('max_age_malformed');
  return {
    openid: scope.includes('openid'),
    nonce: one('nonce'),
    prompt,
    maxAge: maxAgeText === undefined ? undefined : Number(maxAgeText),
    loginHint: one('login_hint'),
    idTokenHint: one('id_token_hint'),
    acrValues: (one('acr_values') ?? '').split(' ').filter((v) => v !== ''),
    uiLocales: one('ui_locales'),
  };
}

/**
 * §11: offline_access is ignored unless the request asks for consent (prompt=consent), so that a
 * user is always asked before an application keeps access while they are away.
 */
export function withoutUnconsentedOfflineAccess(scope: readonly string[], prompt: ReadonlySet<string>): string[] {
  return prompt.has('consent') ? [...scope] : scope.filter((s) => s !== 'offline_access');
}
