import * as oidc from 'openid-client';
import { upstreamSigningKey, type UpstreamProvider } from './providers.js';
import { upstreamFetch } from './upstream-fetch.js';
import { classifyUpstreamError, UpstreamFailure, type UpstreamStep } from './upstream-failures.js';

/**
 * The relying party towards upstream OpenID Providers, through openid-client v6 (no protocol code
 * of our own): discovery (OIDC Discovery 1.0 §4, falling back to RFC 8414 §3), the authorization
 * code flow with PKCE (RFC 7636), `state` and `nonce`, the `iss` of the response (RFC 9207 §2.4),
 * ID-token validation (OIDC Core §3.1.3.7) with its signature checked against the upstream's JWKS,
 * and userinfo (OIDC Core §5.3). Every request goes through `upstreamFetch` (the one loopback rule;
 * an unanswered request told apart), and every failure becomes one `UpstreamFailure`, by kind
 * (upstream-failures.ts).
 */

/** Seconds an upstream has to answer one request. */
const UPSTREAM_TIMEOUT = 5;
/**
 * Discovered metadata is reused this long, milliseconds, by the callback, an upstream logout and
 * the sign-in page's CSP; a new sign-in reads it again first (`upstreamAuthorizationUrl`).
 */
const DISCOVERY_TTL_MS = 5 * 60 * 1000;

const discovered = new Map<
  string,
  { readonly config: oidc.Configuration; readonly at: number; readonly key: string }
>();

async function clientAuthentication(provider: UpstreamProvider): Promise<oidc.ClientAuth> {
  if (provider.clientAuth === 'client_secret_basic') return oidc.ClientSecretBasic(provider.clientSecret ?? '');
  const jwk = provider.privateJwk ?? {};
  let key: CryptoKey;
  try {
    key = await upstreamSigningKey(jwk);
  } catch (error) {
    // Checked when configured; an entry stored before that check lands here.
    throw new UpstreamFailure('upstream_misconfigured', `private_jwk cannot sign: ${(error as Error).message}`);
  }
  return oidc.PrivateKeyJwt(jwk.kid === undefined ? key : { key, kid: jwk.kid });
}

/**
 * The upstream's configuration, discovered, and cached per provider version for `maxAgeMs`
 * (DISCOVERY_TTL_MS; 0 reads the document again, and caches what it read).
 */
export async function upstreamConfiguration(
  provider: UpstreamProvider,
  maxAgeMs = DISCOVERY_TTL_MS,
): Promise<oidc.Configuration> {
  const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientAuth]);
  const cached = discovered.get(provider.id);
  if (cached && cached.key === key && Date.now() - cached.at < maxAgeMs) return cached.config;
  const issuer = new URL(provider.issuer);
  const auth = await clientAuthentication(provider);
  // openid-client's own https check is off: upstreamFetch applies the one loopback rule to every
  // request, so that a refusal is told apart from an upstream that does not answer.
  const options = {
    timeout: UPSTREAM_TIMEOUT,
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: upstreamFetch,
  };
  let config: oidc.Configuration;
  try {
    try {
      config = await oidc.discovery(issuer, provider.clientId, undefined, auth, options);
    } catch (error) {
      // RFC 8414 §3 metadata when the provider publishes no OpenID configuration.
      if (!isNotFound(error)) throw error;
      config = await oidc.discovery(issuer, provider.clientId, undefined, auth, { ...options, algorithm: 'oauth2' });
    }
  } catch (error) {
    throw failureOf(error, 'discovery');
  }
  // Verify the ID token's signature with the upstream's JWKS even though it came over TLS from the
  // token endpoint (OIDC Core §3.1.3.7 allows skipping it; we do not): an unsigned token is refused.
  oidc.enableNonRepudiationChecks(config);
  discovered.set(provider.id, { config, at: Date.now(), key });
  return config;
}

/** The authorization endpoint discovered before, without asking the upstream now. */
export function knownAuthorizationEndpoint(providerId: string): string | undefined {
  return discovered.get(providerId)?.config.serverMetadata().authorization_endpoint;
}

function isNotFound(error: unknown): boolean {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Response && cause.status === 404;
}

/** What a sign-in in flight keeps until the callback: never sent to the browser but `state`. */
export interface UpstreamChecks {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
}

/**
 * The upstream authorization request (OIDC Core §3.1.2.1, RFC 7636 §4.3) and its checks. The
 * discovery document is read again first, never from the cache: that read is the check that the
 * provider answers before the browser is sent there, so a provider that is down is Gatehouse's
 * `upstream_unavailable` page rather than the browser's own "site can't be reached".
 */
export async function upstreamAuthorizationUrl(
  provider: UpstreamProvider,
  redirectUri: string,
  loginHint: string | undefined,
): Promise<{ readonly url: URL; readonly checks: UpstreamChecks }> {
  const config = await upstreamConfiguration(provider, 0);
  const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const params: Record<string, string> = {
    redirect_uri: redirectUri,
    scope: provider.scopes.join(' '),
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
  };
  if (loginHint !== undefined) params.login_hint = loginHint;
  return { url: oidc.buildAuthorizationUrl(config, params), checks };
}

/** What a validated upstream sign-in says of the person. */
export interface UpstreamIdentity {
  readonly issuer: string;
  readonly subject: string;
  /** The ID token's claims merged with userinfo's (userinfo's `sub` checked to be the same). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** OIDC Core §2 `acr` and `amr`, when the upstream sent them. */
  readonly acr: string | undefined;
  readonly amr: readonly string[];
  /** For an upstream logout's `id_token_hint` (RP-Initiated Logout 1.0 §2). */
  readonly idToken: string;
}

/**
 * The callback (RFC 6749 §4.1.2): the response checked (state, `iss` per RFC 9207 §2.4, errors),
 * the code exchanged with the PKCE verifier, the ID token validated (signature, iss, aud, exp, nonce:
 * OIDC Core §3.1.3.7), then userinfo read for the same `sub` (OIDC Core §5.3.2).
 */
export async function completeUpstreamSignIn(
  provider: UpstreamProvider,
  callbackUrl: URL,
  checks: UpstreamChecks,
): Promise<UpstreamIdentity> {
  const config = await upstreamConfiguration(provider);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw failureOf(error, 'callback');
  }
  const idClaims = tokens.claims();
  const idToken = tokens.id_token;
  if (!idClaims || idToken === undefined) throw new UpstreamFailure('upstream_token_invalid', 'no ID token');
  let userinfo: Record<string, unknown> = {};
  if (config.serverMetadata().userinfo_endpoint !== undefined) {
    try {
      userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    } catch (error) {
      throw failureOf(error, 'userinfo');
    }
  }
  const amr = Array.isArray(idClaims.amr) ? idClaims.amr.filter((v): v is string => typeof v === 'string') : [];
  return {
    issuer: idClaims.iss,
    subject: idClaims.sub,
    claims: { ...userinfo, ...idClaims },
    acr: typeof idClaims.acr === 'string' ? idClaims.acr : undefined,
    amr,
    idToken,
  };
}

/** The upstream's end_session_endpoint URL for a logout, when it publishes one (RP-Initiated Logout 1.0 §2). */
export async function upstreamLogoutUrl(
  provider: UpstreamProvider,
  idToken: string,
  postLogoutRedirectUri: string,
  state: string,
): Promise<URL | undefined> {
  const config = await upstreamConfiguration(provider);
  if (config.serverMetadata().end_session_endpoint === undefined) return undefined;
  return oidc.buildEndSessionUrl(config, {
    id_token_hint: idToken,
    post_logout_redirect_uri: postLogoutRedirectUri,
    state,
  });
}

/** The catalog's kind of an openid-client failure; anything it cannot classify is thrown as it is (a defect). */
function failureOf(error: unknown, step: UpstreamStep): unknown {
  return classifyUpstreamError(error, step) ?? error;
}
