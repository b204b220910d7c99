import { OAuthError } from '@gatehouse/contract';
import { grantableScope } from '../clients/index.js';
import { isClientRedirectUri } from '../clients/index.js';
import { isScopeSubset, parseScope } from '../tokens/index.js';
import type { ClientRecord } from '../../primitives/records.js';
import { DEFAULT_RESPONSE_MODE, isResponseMode, type ResponseMode } from '../../primitives/response-modes.js';
import { oidcParametersOf, withoutUnconsentedOfflineAccess, type OidcParameters } from './oidc-parameters.js';

/** A validated authorization request (RFC 6749 §4.1.1 with RFC 7636 §4.3). */
export interface AuthorizationRequest {
  readonly client: ClientRecord;
  readonly redirectUri: string;
  readonly state: string | undefined;
  /** How the response reaches the redirect URI (OAuth 2.0 Multiple Response Types §2.1). */
  readonly responseMode: ResponseMode;
  readonly scope: readonly string[];
  /** BASE64URL(SHA256(code_verifier)); only S256 is accepted. */
  readonly codeChallenge: string;
  /**
   * The request's parameters (from the query, or the form of a POST), re-encoded as a query string.
   * The sign-in and consent forms carry it in a hidden field and every POST validates it again from
   * scratch: nothing in a form is trusted.
   */
  readonly query: string;
  /** OpenID Connect's parameters (OIDC Core §3.1.2.1). */
  readonly oidc: OidcParameters;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is bound to. */
  readonly dpopJkt?: string | undefined;
  /** The organization the tokens are for, by id or slug (docs/organizations.md); absent: none or a choice. */
  readonly organization?: string | undefined;
}

export type AuthorizationRequestCheck =
  | { readonly kind: 'valid'; readonly request: AuthorizationRequest }
  /**
   * The client or its redirect URI cannot be trusted: tell the user, never redirect (RFC 6749 §4.1.2.1).
   * `problem` names the page when it is the request_uri or request object (RFC 9101 §6.2) that failed.
   */
  | {
      readonly kind: 'untrusted';
      readonly detail: string;
      readonly problem?: 'invalid_authorization_request' | 'invalid_request_uri' | 'invalid_request_object';
    }
  /** Any other error goes back to the (verified) redirect URI (RFC 6749 §4.1.2.1). */
  | {
      readonly kind: 'refused';
      readonly redirectUri: string;
      readonly state: string | undefined;
      /** The request's response_mode, or the default when that is the parameter refused. */
      readonly responseMode: ResponseMode;
      readonly error: OAuthError;
    };

const REPEATED = Symbol('repeated');
type QueryValue = string | undefined | typeof REPEATED;

/** Query parameters: an empty value counts as absent and a repeated one is flagged (RFC 6749 §3.1). */
class QueryParams {
  readonly #values = new Map<string, string[]>();

  constructor(query: string) {
    for (const [name, value] of new URLSearchParams(query))
      this.#values.set(name, [...(this.#values.get(name) ?? []), value]);
  }

  one(name: string): QueryValue {
    const list = this.#values.get(name);
    if (!list) return undefined;
    if (list.length > 1) return REPEATED;
    return list[0] === '' ? undefined : list[0];
  }
}

/** The client_id to look up before the request can be checked; undefined when absent or repeated. */
export function clientIdOf(query: string): string | undefined {
  const value = new QueryParams(query).one('client_id');
  return typeof value === 'string' ? value : undefined;
}

// RFC 7636 §4.2: an S256 challenge is the base64url of a SHA-256 digest, 43 characters unpadded.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks an authorization request against its client (undefined when no client has the id). The
 * client and redirect URI are checked first, so that no error is ever redirected to a URI the
 * client did not register; the rest is answered at that URI.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 RFC 6749 §4.1.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1 RFC 6749 §4.1.2.1
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.4.1 RFC 7636 §4.4.1
 */
export function checkAuthorizationRequest(
  query: string,
  client: ClientRecord | undefined,
  resources: readonly string[],
): AuthorizationRequestCheck {
  const params = new QueryParams(query);
  const clientId = params.one('client_id');
  if (clientId === REPEATED) return { kind: 'untrusted', detail: 'client_id was sent more than once.' };
  if (clientId === undefined) return { kind: 'untrusted', detail: 'The request has no client_id.' };
  if (!client || client.id !== clientId)
    return { kind: 'untrusted', detail: `No client is registered with client_id '${clientId}'.` };
  const redirectUri = params.one('redirect_uri');
  if (redirectUri === REPEATED) return { kind: 'untrusted', detail: 'redirect_uri was sent more than once.' };
  if (redirectUri === undefined) return { kind: 'untrusted', detail: 'The request has no redirect_uri.' };
  // RFC 6749 §3.1.2.3, RFC 9700 §4.1.3: exact match; RFC 8252 §7.3: a native app's loopback on any port.
  if (!isClientRedirectUri(client, redirectUri)) {
    return {
      kind: 'untrusted',
      detail: `The redirect_uri '${redirectUri}' is not registered for the client '${client.id}'.`,
    };
  }
  const state = params.one('state');
  const mode = params.one('response_mode');
  const refuse = (error: OAuthError, responseMode = DEFAULT_RESPONSE_MODE): AuthorizationRequestCheck => ({
    kind: 'refused',
    redirectUri,
    state: typeof state === 'string' ? state : undefined,
    responseMode,
    error,
  });
  // Checked first, so that every later error travels as the client asked. A mode the server cannot
  // answer in is refused in the default mode (node-oidc-provider does the same).
  if (mode === REPEATED) return refuse(new OAuthError('parameter_repeated', 'response_mode'));
  if (mode !== undefined && !isResponseMode(mode)) return refuse(new OAuthError('response_mode_unsupported'));
  const responseMode = mode ?? DEFAULT_RESPONSE_MODE;
  const problem = requestProblem(params, client, resources);
  if (problem) return refuse(problem, responseMode);
  const requested = scopeOf(params.one('scope') as string | undefined, client);
  if (requested instanceof OAuthError) return refuse(requested, responseMode);
  const oidc = oidcParametersOf((name) => params.one(name) as string | undefined, requested);
  if (oidc instanceof OAuthError) return refuse(oidc, responseMode);
  const scope = oidc.openid ? withoutUnconsentedOfflineAccess(requested, oidc.prompt) : requested;
  const codeChallenge = params.one('code_challenge') as string;
  // Re-serialised: the same parameters, only ever in URL-safe ASCII, whatever the form sent back.
  const normalized = new URLSearchParams(query).toString();
  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      state: state as string | undefined,
      responseMode,
      scope,
      codeChallenge,
      query: normalized,
      oidc,
      dpopJkt: params.one('dpop_jkt') as string | undefined,
      organization: params.one('organization') as string | undefined,
    },
  };
}

/** The first problem of the parameters that are answered at the redirect URI, in RFC order. */
function requestProblem(
  params: QueryParams,
  client: ClientRecord,
  resources: readonly string[],
): OAuthError | undefined {
  for (const name of [
    'state',
    'response_type',
    'scope',
    'code_challenge',
    'code_challenge_method',
    'nonce',
    'prompt',
    'max_age',
    'login_hint',
    'id_token_hint',
    'resource',
    'dpop_jkt',
  ]) {
    if (params.one(name) === REPEATED) return new OAuthError('parameter_repeated', name);
  }
  const responseType = params.one('response_type');
  if (responseType === undefined) return new OAuthError('parameter_missing', 'response_type');
  // Only the code flow: the implicit flow (token) is deprecated by RFC 9700 §2.1.2.
  if (responseType !== 'code') return new OAuthError('response_type_unsupported');
  if (!client.grantTypes.includes('authorization_code')) return new OAuthError('code_flow_not_allowed');
  const challenge = params.one('code_challenge');
  if (challenge === undefined) return new OAuthError('pkce_challenge_missing');
  // RFC 7636 §4.3 defaults the method to "plain", which is refused: S256 only (RFC 9700 §2.1.1).
  if (params.one('code_challenge_method') !== 'S256') return new OAuthError('pkce_method_unsupported');
  if (!S256_CHALLENGE.test(challenge as string)) return new OAuthError('pkce_challenge_malformed');
  // RFC 8707 §2: a resource the server does not serve is invalid_target, before the user is asked.
  const resource = params.one('resource');
  if (resource !== undefined && !resources.includes(resource as string)) return new OAuthError('resource_unknown');
  // RFC 9449 §10: dpop_jkt is an RFC 7638 SHA-256 thumbprint, 43 base64url characters.
  const jkt = params.one('dpop_jkt');
  if (jkt !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(jkt as string)) return new OAuthError('dpop_jkt_malformed');
  return undefined;
}

/** RFC 6749 §3.3: the requested scope, or the client's whole registered scope when none is asked for. */
function scopeOf(value: string | undefined, client: ClientRecord): readonly string[] | OAuthError {
  let requested: string[] | undefined;
  try {
    requested = parseScope(value);
  } catch (error) {
    if (error instanceof OAuthError) return error;
    throw error;
  }
  const allowed = grantableScope(client);
  if (requested === undefined) return allowed;
  return isScopeSubset(requested, allowed) ? requested : new OAuthError('scope_not_allowed');
}
