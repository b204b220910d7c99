import * as oidc from 'openid-client';
import { importJWK } from 'jose';
import type { UpstreamProvider } from './providers.js';

/**
 * The relying party towards upstream OpenID Providers, through openid-client v6 (no protocol code
 * of our own): discovery (OIDC Discovery 1.0 §4, falling back to RFC 8414 §3), the authorization
 * code flow with PKCE (RFC 7636), `state` and `nonce`, the `iss` of the response (RFC 9207 §2.4),
 * ID-token validation (OIDC Core §3.1.3.7) with its signature checked against the upstream's JWKS,
 * and userinfo (OIDC Core §5.3). Every failure becomes one `UpstreamFailure`, by kind.
 */

/** Why an upstream sign-in failed, as the catalog names it. */
export type UpstreamFailureCode =
  | 'upstream_unavailable'
  | 'upstream_access_denied'
  | 'upstream_login_required'
  | 'upstream_error'
  | 'upstream_token_invalid';

export class UpstreamFailure extends Error {
  readonly code: UpstreamFailureCode;
  /** What the audit trail records: an error code or a validation failure, never a token. */
  readonly reason: string;
  constructor(code: UpstreamFailureCode, reason: string, options?: ErrorOptions) {
    super(`${code}: ${reason}`, options);
    this.name = 'UpstreamFailure';
    this.code = code;
    this.reason = reason;
  }
}

/** Seconds an upstream has to answer one request. */
const UPSTREAM_TIMEOUT = 5;
/** Discovered metadata is reused this long, milliseconds, then read again. */
const DISCOVERY_TTL_MS = 5 * 60 * 1000;

/** Plain http to an upstream only on loopback (a local test or the two-process example). */
function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

const discovered = new Map<
  string,
  { readonly config: oidc.Configuration; readonly at: number; readonly key: string }
>();

async function clientAuthentication(provider: UpstreamProvider): Promise<oidc.ClientAuth> {
  if (provider.clientAuth === 'client_secret_basic') return oidc.ClientSecretBasic(provider.clientSecret ?? '');
  const jwk = provider.privateJwk ?? {};
  const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : 'RS256');
  const key = await importJWK(jwk, alg);
  if (key instanceof Uint8Array) throw new UpstreamFailure('upstream_error', 'private_jwk is not an asymmetric key');
  return oidc.PrivateKeyJwt(jwk.kid === undefined ? key : { key, kid: jwk.kid });
}

/** The upstream's configuration, discovered (and cached for a few minutes per provider version). */
export async function upstreamConfiguration(provider: UpstreamProvider): Promise<oidc.Configuration> {
  const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientAuth]);
  const cached = discovered.get(provider.id);
  if (cached && cached.key === key && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const issuer = new URL(provider.issuer);
  const auth = await clientAuthentication(provider);
  const options = {
    timeout: UPSTREAM_TIMEOUT,
    execute: isLoopback(issuer) && issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
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
    throw classify(error, 'discovery');
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

/** The upstream authorization request (OIDC Core §3.1.2.1, RFC 7636 §4.3) and its checks. */
export async function upstreamAuthorizationUrl(
  provider: UpstreamProvider,
  redirectUri: string,
  loginHint: string | undefined,
): Promise<{ readonly url: URL; readonly checks: UpstreamChecks }> {
  const config = await upstreamConfiguration(provider);
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
    throw classify(error, 'callback');
  }
  const idClaims = tokens.claims();
  const idToken = tokens.id_token;
  if (!idClaims || idToken === undefined) throw new UpstreamFailure('upstream_token_invalid', 'no ID token');
  let userinfo: Record<string, unknown> = {};
  if (config.serverMetadata().userinfo_endpoint !== undefined) {
    try {
      userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    } catch (error) {
      throw classify(error, 'userinfo');
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

/** OIDC Core §3.1.2.6 errors that mean "the upstream would need to show a page". */
const LOGIN_REQUIRED = ['login_required', 'interaction_required', 'consent_required', 'account_selection_required'];

/** One failure of openid-client (or of the network under it) as the catalog's kind. */
function classify(error: unknown, during: 'discovery' | 'callback' | 'userinfo'): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    if (error.error === 'access_denied')
      return new UpstreamFailure('upstream_access_denied', 'access_denied', { cause: error });
    if (LOGIN_REQUIRED.includes(error.error))
      return new UpstreamFailure('upstream_login_required', error.error, { cause: error });
    return new UpstreamFailure('upstream_error', `authorization error ${error.error}`, { cause: error });
  }
  if (error instanceof oidc.ResponseBodyError) {
    if (error.status >= 500 || error.error === 'temporarily_unavailable')
      return new UpstreamFailure('upstream_unavailable', `${during}: ${error.error}`, { cause: error });
    return new UpstreamFailure('upstream_error', `${during}: ${error.error}`, { cause: error });
  }
  const cause = (error as { cause?: unknown }).cause;
  const unreachable =
    during === 'discovery' ||
    (error instanceof TypeError && !(error instanceof oidc.ClientError)) ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
    (cause instanceof Response && cause.status >= 500);
  if (unreachable && !isValidationError(error))
    return new UpstreamFailure('upstream_unavailable', `${during}: ${messageOf(error)}`, { cause: error });
  return new UpstreamFailure('upstream_token_invalid', `${during}: ${messageOf(error)}`, { cause: error });
}

/** openid-client's codes for a response it read and refused (a claim, a signature, a parameter). */
function isValidationError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    /^OAUTH_(JWT|JWS|JSON_ATTRIBUTE|INVALID_RESPONSE|UNSUPPORTED|KEY|RESPONSE_IS_NOT_JSON$)/.test(code) &&
    code !== 'OAUTH_RESPONSE_IS_NOT_CONFORM'
  );
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
