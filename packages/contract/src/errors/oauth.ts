/**
 * The OAuth 2.0 errors Gatehouse answers, each with its HTTP status and the page that explains it,
 * and every reason the server gives for one, with its one stable `error_description`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 RFC 6749 §5.2 (token endpoint errors)
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1 RFC 6749 §4.1.2.1 (authorization endpoint errors)
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.2.1 RFC 7009 §2.2.1 (unsupported_token_type)
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthError OIDC Core §3.1.2.6 (prompt=none errors)
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1 RFC 6750 §3.1 (userinfo bearer errors)
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.5 RFC 8628 §3.5 (device code polling errors)
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2.2 RFC 7591 §3.2.2 (client registration errors)
 * @see https://www.rfc-editor.org/rfc/rfc8707#section-2 RFC 8707 §2 (invalid_target)
 */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_target'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'invalid_request_object'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce';

export interface OAuthErrorEntry {
  readonly error: OAuthErrorCode;
  /** The status answered unless a reason overrides it. */
  readonly status: number;
  /** Slug of the page served at `/problems/{page}`; the response's `error_uri` points there. */
  readonly page: string;
  readonly title: string;
  /** What happened, for the page. */
  readonly summary: string;
  /** What the client must do: the spec's "client handling" column. */
  readonly clientAction: string;
  /** Whether a client may retry the same request later and expect it to succeed. */
  readonly transient: boolean;
}

const entry = (e: OAuthErrorEntry): OAuthErrorEntry => e;

export const OAUTH_ERRORS: { readonly [C in OAuthErrorCode]: OAuthErrorEntry } = {
  invalid_request: entry({
    error: 'invalid_request',
    status: 400,
    page: 'invalid-request',
    title: 'Invalid request',
    transient: false,
    summary:
      'The request is missing a required parameter, repeats a parameter, or is not a form-encoded body; at the authorization endpoint, it lacks a PKCE S256 code_challenge.',
    clientAction: 'Fix the request as the error_description says; sending it again unchanged fails again.',
  }),
  invalid_client: entry({
    error: 'invalid_client',
    status: 401,
    page: 'invalid-client',
    title: 'Client authentication failed',
    transient: false,
    summary:
      'The client could not be authenticated: unknown client (or, at the device authorization endpoint, a client_id URL whose client ID metadata document could not be fetched, is not valid or is not accepted here), wrong secret, no credentials, more than one authentication method, or a method the client may not use (a client of private_key_jwt or of the FAPI 2.0 profile sent a secret; its client assertion was signed with an algorithm other than PS256, ES256 or EdDSA).',
    clientAction:
      'This is a configuration error: check the client id, secret and authentication method. Keep your tokens; do not re-authenticate the user.',
  }),
  invalid_grant: entry({
    error: 'invalid_grant',
    status: 400,
    page: 'invalid-grant',
    title: 'Grant refused',
    transient: false,
    summary:
      'The refresh token or authorization code is expired, revoked, past its rotation limit, issued to another client, or unknown. The refusal is permanent.',
    clientAction:
      'Do not retry the same token: it will fail again, now and later. Discard it and send the user through the full authorization flow again to obtain a new grant. Optionally introspect the token to confirm it was revoked.',
  }),
  unauthorized_client: entry({
    error: 'unauthorized_client',
    status: 400,
    page: 'unauthorized-client',
    title: 'Grant type not allowed for this client',
    transient: false,
    summary:
      'The client is not registered for the grant type it used, or, at the authorization endpoint, for the authorization code flow.',
    clientAction:
      'This is a configuration error: ask the operator to allow the grant type for the client, or use one it allows.',
  }),
  unsupported_grant_type: entry({
    error: 'unsupported_grant_type',
    status: 400,
    page: 'unsupported-grant-type',
    title: 'Unsupported grant type',
    transient: false,
    summary:
      'The grant_type is not one this server supports (authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code).',
    clientAction: 'Use a supported grant type; the server metadata lists them in grant_types_supported.',
  }),
  invalid_scope: entry({
    error: 'invalid_scope',
    status: 400,
    page: 'invalid-scope',
    title: 'Invalid scope',
    transient: false,
    summary: 'The requested scope is malformed, or exceeds what the client or the grant allows.',
    clientAction: 'Request only scopes the client is registered for; on refresh, only scopes of the original grant.',
  }),
  unsupported_token_type: entry({
    error: 'unsupported_token_type',
    status: 400,
    page: 'unsupported-token-type',
    title: 'Token type cannot be revoked',
    transient: false,
    summary: 'Access tokens are short-lived signed JWTs and are not revoked one by one.',
    clientAction:
      'Revoke the refresh token instead: that revokes the whole grant, and access tokens of a revoked grant are refused by the API.',
  }),
  invalid_redirect_uri: entry({
    error: 'invalid_redirect_uri',
    status: 400,
    page: 'invalid-redirect-uri',
    title: 'Invalid redirect URI',
    transient: false,
    summary:
      'A client registration (RFC 7591 §3.2.2) named no redirect URI for the authorization code grant, or one that is not an absolute https URI without a fragment, or plain http on a loopback IP literal (127.0.0.1 or [::1], RFC 8252 §7.3). Nothing was registered or changed.',
    clientAction:
      'Register https redirect URIs, or for a native app or agent on this machine http://127.0.0.1/… or http://[::1]/… (any port matches at authorization time).',
  }),
  invalid_client_metadata: entry({
    error: 'invalid_client_metadata',
    status: 400,
    page: 'invalid-client-metadata',
    title: 'Invalid client metadata',
    transient: false,
    summary:
      'A client registration (RFC 7591 §2, §3.2.2) sent metadata the server does not accept: a field of the wrong type, grant_types and response_types that disagree, an authentication method or scope the server does not offer, a confidential client without an initial access token, or profile fapi2 for a client that could not comply with FAPI 2.0. Nothing was registered or changed.',
    clientAction:
      'Fix the field the error_description names and register again; the server metadata lists the grant types, scopes and authentication methods it offers.',
  }),
  invalid_target: entry({
    error: 'invalid_target',
    status: 400,
    page: 'invalid-target',
    title: 'Unknown resource',
    transient: false,
    summary:
      "The authorization or token request named a resource (RFC 8707 §2) that this server does not serve: neither its issuer nor its REST API ({issuer}/v2); or a token exchange (RFC 8693 §2.2.2) named an audience or resource that the client's token exchange policy does not list. No code or token was issued.",
    clientAction:
      "Send the resource value of the protected resource metadata (RFC 9728) as it is, or no resource at all for a token for the whole server. For a token exchange, ask the operator to add the target to the client's token exchange audiences.",
  }),
  access_denied: entry({
    error: 'access_denied',
    status: 400,
    page: 'access-denied',
    title: 'Access denied',
    transient: false,
    summary:
      'The user declined the authorization request on the consent page. The authorization server sends this to the redirect_uri; no code was issued. A device polling the token endpoint gets it once the user denied its device code on the /device page (RFC 8628 §3.5).',
    clientAction:
      'Tell the user the application was not given access, and offer to start the authorization flow again when they choose to. Do not retry on your own.',
  }),
  unsupported_response_type: entry({
    error: 'unsupported_response_type',
    status: 400,
    page: 'unsupported-response-type',
    title: 'Unsupported response type',
    transient: false,
    summary:
      'The authorization request asked for a response_type other than code. Only the authorization code flow with PKCE is served; the implicit flow (token) is not.',
    clientAction:
      'Send response_type=code with a PKCE S256 code_challenge, then exchange the code at the token endpoint.',
  }),
  server_error: entry({
    error: 'server_error',
    status: 500,
    page: 'server-error',
    title: 'Server error',
    transient: true,
    summary: 'The server met an unexpected condition. Nothing about the token changed.',
    clientAction: 'Retry with exponential backoff; report the problem to the operator if it persists.',
  }),
  temporarily_unavailable: entry({
    error: 'temporarily_unavailable',
    status: 503,
    page: 'temporarily-unavailable',
    title: 'Temporarily unavailable',
    transient: true,
    summary:
      'The server is overloaded or its store is busy (503), or the client or its address sent more requests than its rate limit allows (429). Nothing about the token changed.',
    clientAction:
      'Retry after the Retry-After delay (whole seconds), with exponential backoff. On 429, send fewer requests: reuse access tokens until they expire instead of refreshing early, and cache introspection answers briefly.',
  }),
  login_required: entry({
    error: 'login_required',
    status: 400,
    page: 'login-required',
    title: 'Sign-in required',
    transient: false,
    summary:
      'The authentication request said prompt=none, but the user is not signed in (or signed in longer ago than max_age allows). No page was shown.',
    clientAction:
      'Send the user through the authorization request again without prompt=none, so that they can sign in.',
  }),
  consent_required: entry({
    error: 'consent_required',
    status: 400,
    page: 'consent-required',
    title: 'Consent required',
    transient: false,
    summary:
      'The authentication request said prompt=none, but the user has not allowed this application the requested scope. No page was shown.',
    clientAction:
      'Send the user through the authorization request again without prompt=none, so that they can consent.',
  }),
  interaction_required: entry({
    error: 'interaction_required',
    status: 400,
    page: 'interaction-required',
    title: 'Interaction required',
    transient: false,
    summary:
      'The authentication request said prompt=none, but it needs the user to act: its id_token_hint names another user than the one signed in, who would have to switch accounts. No page was shown.',
    clientAction: 'Send the user through the authorization request again without prompt=none.',
  }),
  invalid_token: entry({
    error: 'invalid_token',
    status: 401,
    page: 'bearer-invalid-token',
    title: 'Invalid access token',
    transient: false,
    summary:
      'The userinfo endpoint got no access token, or one that is expired, not signed by this server, issued by another issuer or for another audience (a token minted with another ISSUER), or whose grant was revoked; or a client registration endpoint (RFC 7591 §3, RFC 7592 §3) got no valid initial or registration access token.',
    clientAction:
      'Refresh the access token (or sign the user in again) and retry with the new one. At the registration endpoints: ask the operator for a new initial access token, or register the client again.',
  }),
  insufficient_scope: entry({
    error: 'insufficient_scope',
    status: 403,
    page: 'bearer-insufficient-scope',
    title: 'Insufficient scope',
    transient: false,
    summary: 'The access token was not granted the openid scope, which the userinfo endpoint requires.',
    clientAction: 'Ask for the openid scope in the authorization request.',
  }),
  authorization_pending: entry({
    error: 'authorization_pending',
    status: 400,
    page: 'authorization-pending',
    title: 'Authorization pending',
    transient: true,
    summary:
      'The device code is valid, but the user has not yet entered the user code and approved or denied the request on the /device page (RFC 8628 §3.5).',
    clientAction:
      'Keep polling the token endpoint with the same device_code, waiting the interval (5 seconds unless the device authorization response said otherwise) between requests.',
  }),
  slow_down: entry({
    error: 'slow_down',
    status: 400,
    page: 'slow-down',
    title: 'Polling too fast',
    transient: true,
    summary:
      'The device polled the token endpoint sooner than the interval allows. The authorization is still pending, and the interval for this device code is now 5 seconds longer (RFC 8628 §3.5).',
    clientAction:
      'Add 5 seconds to the polling interval for this and every later request of this device code, then keep polling.',
  }),
  expired_token: entry({
    error: 'expired_token',
    status: 400,
    page: 'expired-token',
    title: 'Device code expired',
    transient: false,
    summary:
      'The device code has expired (10 minutes after it was issued) before it was approved and redeemed; the device authorization session is over (RFC 8628 §3.5).',
    clientAction:
      'Stop polling. Start again with a new device authorization request and show the user the new user code.',
  }),
  invalid_request_object: entry({
    error: 'invalid_request_object',
    status: 400,
    page: 'invalid-request-object-error',
    title: 'Invalid request object',
    transient: false,
    summary:
      "The request parameter is not a request object the server accepts (RFC 9101 §7): not a JWT signed by one of the client's registered keys with an asymmetric algorithm, or its iss is not the client_id, its aud not the issuer, its exp missing or past, its nbf ahead, or it names another client.",
    clientAction:
      "Sign the request object with a key of the client's jwks or jwks_uri, with iss the client_id, aud the issuer identifier and exp a few minutes ahead, and send it again.",
  }),
  invalid_dpop_proof: entry({
    error: 'invalid_dpop_proof',
    status: 400,
    page: 'token-invalid-dpop-proof',
    title: 'Invalid DPoP proof',
    transient: false,
    summary:
      'The token request, or the pushed authorization request (RFC 9449 §10.1), carried a DPoP header (RFC 9449 §4) that is not one valid proof: not a compact JWS of typ dpop+jwt, an algorithm outside dpop_signing_alg_values_supported, a private or malformed jwk, a bad signature, htm or htu that do not name this request, an iat outside the window, or a jti used before; or the client is registered with dpop_bound_access_tokens or the FAPI 2.0 profile (profile fapi2) and sent no proof to the token endpoint.',
    clientAction:
      'Send exactly one DPoP header with a fresh proof for this request (htm POST, htu the endpoint called, token or pushed authorization request, without query, a new jti, the current time as iat) signed with an algorithm the server announces.',
  }),
  use_dpop_nonce: entry({
    error: 'use_dpop_nonce',
    status: 400,
    page: 'token-use-dpop-nonce',
    title: 'DPoP nonce required',
    transient: true,
    summary:
      'The server requires a server-provided nonce in DPoP proofs (RFC 9449 §8) and the proof had none, or one that is no longer current. The response carries the nonce to use in its DPoP-Nonce header.',
    clientAction:
      'Make a new proof whose nonce claim is the DPoP-Nonce header of this response and send the request again.',
  }),
};

/** Whether an `error` read from the wire is one of the catalog's codes (and so has an entry). */
export function isOAuthErrorCode(error: string): error is OAuthErrorCode {
  return Object.hasOwn(OAUTH_ERRORS, error);
}

export interface OAuthReasonEntry {
  readonly error: OAuthErrorCode;
  /**
   * The `error_description`, stable for the reason. `{parameter}` stands for one of the server's own
   * parameter names, never for client input (RFC 6749 §5.2 limits the description to printable ASCII).
   */
  readonly description: string;
  /** Overrides the error's status (e.g. 413 for a body over the limit). */
  readonly status?: number;
}

const reason = (r: OAuthReasonEntry): OAuthReasonEntry => r;

/**
 * Every reason the server gives for an OAuth error. Where a refresh token is in several refused
 * states at once, the grant logic reports them in the precedence past rotation limit, then revoked,
 * then expired, so that the answer for one token never changes from one retry to the next.
 */
export const OAUTH_REASONS = {
  parameter_missing: reason({ error: 'invalid_request', description: "missing required parameter '{parameter}'" }),
  parameter_repeated: reason({
    error: 'invalid_request',
    description: "parameter '{parameter}' was sent more than once",
  }),
  body_not_form: reason({
    error: 'invalid_request',
    description: 'request body must be application/x-www-form-urlencoded',
  }),
  body_not_json: reason({ error: 'invalid_request', description: 'request body must be application/json' }),
  body_content_coding: reason({
    error: 'invalid_request',
    description: 'request body must be sent without a Content-Encoding',
  }),
  body_too_large: reason({
    error: 'invalid_request',
    status: 413,
    description: 'request body is larger than the server accepts',
  }),
  request_unreadable: reason({ error: 'invalid_request', description: 'request could not be read' }),
  multiple_client_authentication: reason({
    error: 'invalid_request',
    description: 'client used more than one authentication method',
  }),
  pkce_verifier_malformed: reason({
    error: 'invalid_request',
    description: 'code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]',
  }),
  pkce_challenge_missing: reason({
    error: 'invalid_request',
    description: 'code_challenge is required: PKCE with S256 is required for every client',
  }),
  pkce_method_unsupported: reason({ error: 'invalid_request', description: 'code_challenge_method must be S256' }),
  pkce_challenge_malformed: reason({
    error: 'invalid_request',
    description: 'code_challenge must be the 43-character base64url SHA-256 of the code_verifier',
  }),

  client_authentication_failed: reason({ error: 'invalid_client', description: 'client authentication failed' }),
  // draft-ietf-oauth-client-id-metadata-document: a URL client_id whose document (fetched where a flow
  // starts without a browser, RFC 8628 §3.1) cannot describe a client is an unknown client. The
  // problem of the same name says why on the browser's pages; the audit trail says why here.
  client_metadata_document_unavailable: reason({
    error: 'invalid_client',
    description: 'the client ID metadata document at the client_id URL could not be fetched',
  }),
  client_metadata_document_invalid: reason({
    error: 'invalid_client',
    description: 'the client ID metadata document at the client_id URL does not describe a valid client',
  }),
  client_metadata_document_not_allowed: reason({
    error: 'invalid_client',
    description: 'client ID metadata documents are not accepted from this client_id URL',
  }),
  // RFC 7523 §2.2, RFC 7521 §4.2: one JWT of the jwt-bearer type, whose sub is the client_id beside it.
  client_assertion_malformed: reason({
    error: 'invalid_client',
    description:
      'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer with one client_assertion JWT whose sub is the client_id',
  }),
  pushed_request_uri_sent: reason({
    error: 'invalid_request',
    description: 'a pushed authorization request must not carry request_uri',
  }),
  pushed_request_redirect_uri_invalid: reason({
    error: 'invalid_request',
    description: 'redirect_uri is missing, repeated or not registered for the client',
  }),
  // RFC 9449 §10.1: a pushed request sent with a proof and dpop_jkt must name one key in both.
  pushed_request_dpop_jkt_mismatch: reason({
    error: 'invalid_request',
    description: 'dpop_jkt does not name the key of the DPoP proof sent with the pushed authorization request',
  }),
  pushed_request_required: reason({
    error: 'invalid_request',
    description: 'authorization requests of this client must be pushed to the pushed authorization request endpoint',
  }),
  request_object_invalid: reason({
    error: 'invalid_request_object',
    description: "request is not a JWT signed by the client's keys with valid iss, aud and exp",
  }),
  request_object_not_supported: reason({
    error: 'invalid_request_object',
    description: 'the client has registered no keys to sign request objects with',
  }),
  client_authorization_malformed: reason({
    error: 'invalid_client',
    description: 'Authorization header is not valid Basic credentials',
  }),

  refresh_token_past_rotation_limit: reason({
    error: 'invalid_grant',
    description: 'refresh token is past its rotation limit',
  }),
  refresh_token_revoked: reason({ error: 'invalid_grant', description: 'refresh token has been revoked' }),
  refresh_token_expired: reason({ error: 'invalid_grant', description: 'refresh token has expired' }),
  refresh_token_client_mismatch: reason({
    error: 'invalid_grant',
    description: 'refresh token was issued to another client',
  }),
  refresh_token_dpop_key_mismatch: reason({
    error: 'invalid_grant',
    description: 'refresh token is bound to a DPoP key and the request has no proof signed by it',
  }),
  authorization_code_dpop_key_mismatch: reason({
    error: 'invalid_grant',
    description: 'authorization code is bound to a DPoP key (dpop_jkt) and the request has no proof signed by it',
  }),
  dpop_proof_invalid: reason({ error: 'invalid_dpop_proof', description: 'the DPoP proof is invalid' }),
  dpop_proof_required: reason({
    error: 'invalid_dpop_proof',
    description: 'this client must send a DPoP proof (dpop_bound_access_tokens or profile fapi2)',
  }),
  dpop_nonce_required: reason({
    error: 'use_dpop_nonce',
    description: 'the DPoP proof must carry the nonce of the DPoP-Nonce header',
  }),
  dpop_jkt_malformed: reason({
    error: 'invalid_request',
    description: 'dpop_jkt must be a base64url SHA-256 JWK thumbprint',
  }),
  userinfo_dpop_proof_invalid: reason({
    error: 'invalid_dpop_proof',
    status: 401,
    description: 'the DPoP proof sent to the UserInfo endpoint is invalid',
  }),
  userinfo_dpop_nonce_required: reason({
    error: 'use_dpop_nonce',
    status: 401,
    description: 'the DPoP proof sent to the UserInfo endpoint must carry the nonce of the DPoP-Nonce header',
  }),
  refresh_token_invalid: reason({ error: 'invalid_grant', description: 'refresh token is invalid' }),
  authorization_code_invalid: reason({ error: 'invalid_grant', description: 'authorization code is invalid' }),
  authorization_code_expired: reason({ error: 'invalid_grant', description: 'authorization code has expired' }),
  authorization_code_used: reason({ error: 'invalid_grant', description: 'authorization code has already been used' }),
  authorization_code_client_mismatch: reason({
    error: 'invalid_grant',
    description: 'authorization code was issued to another client',
  }),
  redirect_uri_mismatch: reason({
    error: 'invalid_grant',
    description: 'redirect_uri does not match the authorization request',
  }),
  code_verifier_mismatch: reason({
    error: 'invalid_grant',
    description: 'code_verifier does not match the code_challenge',
  }),

  // RFC 8693 §2.2.2: an invalid or unacceptable subject or actor token is invalid_request; a target
  // the server will not issue for is invalid_target.
  token_exchange_token_type_unsupported: reason({
    error: 'invalid_request',
    description:
      'subject_token_type and actor_token_type must be urn:ietf:params:oauth:token-type:access_token or urn:ietf:params:oauth:token-type:jwt',
  }),
  token_exchange_requested_type_unsupported: reason({
    error: 'invalid_request',
    description:
      "requested_token_type must be urn:ietf:params:oauth:token-type:access_token or urn:ietf:params:oauth:token-type:jwt; urn:ietf:params:oauth:token-type:refresh_token only where the client's token exchange policy allows refresh tokens",
  }),
  token_exchange_refresh_subject_ungranted: reason({
    error: 'invalid_request',
    description:
      "a refresh token is issued by token exchange only for a subject_token of this server under a user's grant, not for a trusted issuer's or a grant-less token",
  }),
  token_exchange_subject_invalid: reason({
    error: 'invalid_request',
    description:
      'subject_token is not an active token of this server or of a trusted issuer (expired, revoked, or not verifiable)',
  }),
  token_exchange_actor_invalid: reason({
    error: 'invalid_request',
    description:
      'actor_token is not an active token of this server held by this client, nor a token of a trusted issuer addressed to it',
  }),
  token_exchange_unknown_user: reason({
    error: 'invalid_request',
    description: "the trusted issuer's token names no enabled user of this server",
  }),
  token_exchange_subject_not_allowed: reason({
    error: 'invalid_request',
    description:
      'this client may not exchange this subject token: it was issued neither to this client nor for an audience its token exchange policy names',
  }),
  token_exchange_may_act_mismatch: reason({
    error: 'invalid_request',
    description: "the subject token's may_act claim does not name this actor",
  }),
  token_exchange_target_not_allowed: reason({
    error: 'invalid_target',
    description: "audience or resource is neither this server's nor one this client's token exchange policy names",
  }),
  token_exchange_targets_differ: reason({
    error: 'invalid_target',
    description: 'resource and audience name different targets: one target per token exchange',
  }),
  token_exchange_scope_exceeds_subject: reason({
    error: 'invalid_scope',
    description: "requested scope exceeds the subject token's scope or the scope this client may request",
  }),

  grant_type_not_allowed: reason({
    error: 'unauthorized_client',
    description: 'client is not allowed to use this grant type',
  }),
  code_flow_not_allowed: reason({
    error: 'unauthorized_client',
    description: 'client is not allowed to use the authorization code flow',
  }),
  response_type_unsupported: reason({ error: 'unsupported_response_type', description: 'response_type must be code' }),
  response_mode_unsupported: reason({
    error: 'invalid_request',
    description: 'response_mode must be query or form_post',
  }),
  consent_denied: reason({ error: 'access_denied', description: 'the user denied the authorization request' }),
  terms_declined: reason({ error: 'access_denied', description: 'the user declined the terms of service' }),
  device_authorization_pending: reason({
    error: 'authorization_pending',
    description: 'the user has not yet approved or denied the device code',
  }),
  device_polling_too_fast: reason({
    error: 'slow_down',
    description: 'polling faster than the interval; the interval is now 5 seconds longer',
  }),
  device_code_expired: reason({ error: 'expired_token', description: 'device code has expired' }),
  device_code_denied: reason({ error: 'access_denied', description: 'the user denied the device code' }),
  device_code_invalid: reason({ error: 'invalid_grant', description: 'device code is invalid' }),
  device_code_used: reason({ error: 'invalid_grant', description: 'device code has already been used' }),
  device_code_client_mismatch: reason({
    error: 'invalid_grant',
    description: 'device code was issued to another client',
  }),
  grant_type_unsupported: reason({ error: 'unsupported_grant_type', description: 'grant_type is not supported' }),
  scope_not_allowed: reason({
    error: 'invalid_scope',
    description: 'requested scope exceeds the scope the client may request',
  }),
  scope_exceeds_grant: reason({
    error: 'invalid_scope',
    description: 'requested scope exceeds the scope of the grant',
  }),
  scope_malformed: reason({
    error: 'invalid_scope',
    description: 'scope must be space-separated tokens of printable ASCII',
  }),
  access_token_not_revocable: reason({
    error: 'unsupported_token_type',
    description: 'access tokens cannot be revoked; revoke the refresh token',
  }),
  prompt_none_combined: reason({
    error: 'invalid_request',
    description: 'prompt=none cannot be combined with another prompt value',
  }),
  max_age_malformed: reason({ error: 'invalid_request', description: 'max_age must be a whole number of seconds' }),
  id_token_hint_invalid: reason({
    error: 'invalid_request',
    description: 'id_token_hint is not an ID token this server issued to the client',
  }),
  login_required: reason({ error: 'login_required', description: 'prompt=none, and the user must sign in' }),
  consent_required: reason({
    error: 'consent_required',
    description: 'prompt=none, and the user must consent to the requested scope',
  }),
  interaction_required: reason({
    error: 'interaction_required',
    description: 'prompt=none, and the request needs the user to act',
  }),
  userinfo_token_missing: reason({ error: 'invalid_token', description: 'no bearer access token was sent' }),
  userinfo_token_invalid: reason({
    error: 'invalid_token',
    description: 'the access token is expired, revoked or not issued by this server',
  }),
  userinfo_token_foreign: reason({
    error: 'invalid_token',
    description: 'the access token was issued by another issuer or for another audience than this server',
  }),
  userinfo_scope_missing: reason({
    error: 'insufficient_scope',
    description: 'the access token was not granted the openid scope',
  }),
  redirect_uris_missing: reason({
    error: 'invalid_redirect_uri',
    description: 'redirect_uris must name at least one URI for the authorization_code grant',
  }),
  registered_redirect_uri_malformed: reason({
    error: 'invalid_redirect_uri',
    description: 'each redirect URI must be an absolute URI without a fragment or credentials',
  }),
  // RFC 3986 §2: the authorization endpoint matches only URI characters, so no other could ever be used.
  registered_redirect_uri_characters: reason({
    error: 'invalid_redirect_uri',
    description: 'a redirect URI must hold printable ASCII only: no control, space or non-ASCII character',
  }),
  registered_redirect_uri_insecure: reason({
    error: 'invalid_redirect_uri',
    description: 'a redirect URI must use https, or http on the loopback address 127.0.0.1 or [::1]',
  }),
  client_metadata_not_object: reason({
    error: 'invalid_client_metadata',
    description: 'client metadata must be a JSON object',
  }),
  client_metadata_field_invalid: reason({
    error: 'invalid_client_metadata',
    description: "client metadata '{parameter}' has a value of the wrong type or form",
  }),
  registered_grant_type_unsupported: reason({
    error: 'invalid_client_metadata',
    description: 'grant_types names a grant type that registered clients cannot use',
  }),
  registered_response_types_inconsistent: reason({
    error: 'invalid_client_metadata',
    description: 'response_types must be code exactly when grant_types includes authorization_code',
  }),
  registered_auth_method_unsupported: reason({
    error: 'invalid_client_metadata',
    description: 'token_endpoint_auth_method must be none, client_secret_basic, client_secret_post or private_key_jwt',
  }),
  registered_public_client_credentials: reason({
    error: 'invalid_client_metadata',
    description: 'a public client (token_endpoint_auth_method none) cannot use client_credentials',
  }),
  confidential_registration_not_allowed: reason({
    error: 'invalid_client_metadata',
    description: 'only a registration with an initial access token may register a confidential client',
  }),
  registered_scope_unsupported: reason({
    error: 'invalid_client_metadata',
    description: 'scope names a scope this server does not offer',
  }),
  registered_auth_method_changed: reason({
    error: 'invalid_client_metadata',
    description: 'token_endpoint_auth_method cannot change after registration',
  }),
  registered_client_id_mismatch: reason({
    error: 'invalid_client_metadata',
    description: "client_id must be the client's own",
  }),
  registered_client_secret_mismatch: reason({
    error: 'invalid_client_metadata',
    description: "client_secret, when sent, must be the client's current secret",
  }),
  // FAPI 2.0 §5.3.2.1 and §5.4.1 for a registration with profile fapi2 (the CLI's and admin API's check).
  registered_fapi2_public: reason({
    error: 'invalid_client_metadata',
    description: 'profile fapi2 is for confidential clients only, not token_endpoint_auth_method none',
  }),
  registered_fapi2_no_keys: reason({
    error: 'invalid_client_metadata',
    description: 'profile fapi2 needs token_endpoint_auth_method private_key_jwt with jwks or jwks_uri',
  }),
  registered_fapi2_client_secret: reason({
    error: 'invalid_client_metadata',
    description: 'profile fapi2 needs token_endpoint_auth_method private_key_jwt, never a client secret',
  }),
  registered_profile_lowered: reason({
    error: 'invalid_client_metadata',
    description: 'profile fapi2 cannot be lowered at the client configuration endpoint; an operator may change it',
  }),
  initial_access_token_invalid: reason({
    error: 'invalid_token',
    description: 'the initial access token is missing, expired, used up or unknown',
  }),
  registration_access_token_invalid: reason({
    error: 'invalid_token',
    description: 'the registration access token is missing or not valid for this client',
  }),
  resource_unknown: reason({
    error: 'invalid_target',
    description: 'resource is not a resource this server serves',
  }),
  internal_error: reason({ error: 'server_error', description: 'the server met an unexpected condition' }),
  store_busy: reason({ error: 'temporarily_unavailable', description: 'the store is busy; retry later' }),
  rate_limited: reason({
    error: 'temporarily_unavailable',
    status: 429,
    description: 'too many requests; retry after the Retry-After delay',
  }),
} as const satisfies Record<string, OAuthReasonEntry>;

export type OAuthErrorReason = keyof typeof OAUTH_REASONS;

/**
 * An OAuth error response body; wire names are the RFC's. `error` is a string, not an
 * {@link OAuthErrorCode}: other servers send codes of their own (e.g. `mfa_required`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 RFC 6749 §5.2
 */
export interface OAuthErrorBody {
  readonly error: string;
  readonly error_description?: string;
  readonly error_uri?: string;
}

/** The OAuth reasons whose descriptions name a parameter. */
export type ParameterizedReason = 'parameter_missing' | 'parameter_repeated' | 'client_metadata_field_invalid';

/** The OAuth reasons whose description is fixed text. */
export type FixedOAuthReason = Exclude<OAuthErrorReason, ParameterizedReason>;

const PRINTABLE_ASCII = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;

/** The `error_description` for a reason; `parameter` fills `{parameter}`. */
export function describeOAuthReason(reasonName: OAuthErrorReason, parameter?: string): string {
  const description = OAUTH_REASONS[reasonName].description.replace('{parameter}', parameter ?? '');
  // RFC 6749 §5.2: error_description is limited to %x20-21 / %x23-5B / %x5D-7E.
  if (!PRINTABLE_ASCII.test(description)) throw new TypeError(`description of ${reasonName} is not printable ASCII`);
  return description;
}

/** The HTTP status answered for a reason. */
export function statusOfOAuthReason(reasonName: OAuthErrorReason): number {
  const r: OAuthReasonEntry = OAUTH_REASONS[reasonName];
  return r.status ?? OAUTH_ERRORS[r.error].status;
}
