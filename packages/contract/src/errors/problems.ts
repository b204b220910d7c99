/**
 * The problem types of the REST API and of every non-OAuth route, answered as RFC 9457
 * `application/problem+json`. `type` is `/problems/{slug}`, a page the server serves. The
 * authorization pages (sign-in and consent) show the same entries as HTML error pages.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9457 RFC 9457
 */

export type ProblemCode =
  | 'missing_required_field'
  | 'invalid_field_value'
  | 'malformed_json'
  | 'invalid_parameter'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'insufficient_role'
  | 'step_up_required'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  | 'owner_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'precondition_failed'
  | 'internal_error'
  | 'service_unavailable'
  | 'not_ready'
  | 'invalid_authorization_request'
  | 'invalid_request_uri'
  | 'invalid_request_object'
  | 'invalid_logout_request'
  | 'client_metadata_document_unavailable'
  | 'client_metadata_document_invalid'
  | 'client_metadata_document_not_allowed'
  | 'csrf_token_invalid'
  | 'login_failed'
  | 'too_many_login_attempts'
  | 'passkey_sign_in_failed'
  | 'passkey_enrolment_failed'
  | 'user_code_invalid'
  | 'too_many_user_code_attempts'
  | 'second_factor_failed'
  | 'fresh_sign_in_required'
  | 'malformed_request'
  | 'request_header_too_large'
  | 'request_timeout'
  | 'invalid_operator_input'
  | 'conflict'
  | 'invalid_email_address'
  | 'invalid_email_message'
  | 'password_reset_link_invalid'
  | 'too_many_password_resets'
  | 'password_not_accepted'
  | 'email_verification_link_invalid'
  | 'verification_code_invalid'
  | 'email_address_missing'
  | 'invitation_link_invalid'
  | 'sign_up_needs_invitation'
  | 'sign_up_address_not_accepted'
  | 'sign_up_name_not_accepted'
  | 'too_many_sign_ups'
  | 'account_deletion_not_confirmed'
  | 'email_change_address_not_accepted'
  | 'upstream_unavailable'
  | 'upstream_misconfigured'
  | 'upstream_access_denied'
  | 'upstream_login_required'
  | 'upstream_sign_in_failed'
  | 'upstream_code_refused'
  | 'upstream_error'
  | 'upstream_token_invalid'
  | 'federation_state_invalid'
  | 'federation_no_provider'
  | 'federation_no_account'
  | 'federation_unlink_refused'
  | 'organization_domain_public'
  | 'organization_not_member'
  | 'organization_sign_in_method';

export interface ProblemEntry {
  readonly code: ProblemCode;
  readonly status: number;
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  readonly clientAction: string;
  readonly transient: boolean;
}

const problem = (p: ProblemEntry): ProblemEntry => p;

export const PROBLEMS: { readonly [C in ProblemCode]: ProblemEntry } = {
  missing_required_field: problem({
    code: 'missing_required_field',
    status: 400,
    slug: 'missing-required-field',
    title: 'Missing required field',
    transient: false,
    summary:
      'A required field is omitted from the JSON body, or set to null where its schema does not allow null. The detail reads exactly: Missing required field \'<field_name>\' in request body. Every missing field is listed in errors. Null is a value, not a missing field, only where the schema explicitly allows it: nullable: true in OpenAPI 3.0, a type listing "null" in OpenAPI 3.1.',
    clientAction:
      'Add the field with a valid value and send again. Validate bodies against the schema (GET /v2/openapi.json) before sending. Changing POST to PUT does not avoid the validation.',
  }),
  invalid_field_value: problem({
    code: 'invalid_field_value',
    status: 422,
    slug: 'invalid-field-value',
    title: 'Invalid field value',
    transient: false,
    summary:
      "A field is present but its value is not acceptable: an empty or badly formatted value, a wrong type, a field the schema refuses (additionalProperties: false), or a read-only field such as id sent with a value other than the record's own (or sent at all when creating).",
    clientAction: 'Send a correctly formatted value for each field listed in errors.',
  }),
  malformed_json: problem({
    code: 'malformed_json',
    status: 400,
    slug: 'malformed-json',
    title: 'Malformed JSON',
    transient: false,
    summary:
      'The request body is not valid JSON in UTF-8, nests arrays and objects more than 64 levels deep, or is empty where a body is required.',
    clientAction: 'Send a well-formed JSON document.',
  }),
  invalid_parameter: problem({
    code: 'invalid_parameter',
    status: 400,
    slug: 'invalid-parameter',
    title: 'Invalid query parameter',
    transient: false,
    summary:
      'A query parameter has a value the endpoint does not accept, such as a page size out of range or a cursor it did not give out.',
    clientAction: 'Send the parameter as the detail says, or leave it out.',
  }),
  unsupported_media_type: problem({
    code: 'unsupported_media_type',
    status: 415,
    slug: 'unsupported-media-type',
    title: 'Unsupported media type',
    transient: false,
    summary:
      'The request body has a Content-Type this endpoint does not accept, or a Content-Encoding (such as gzip): bodies are read only as sent (that answer carries Accept-Encoding: identity).',
    clientAction:
      'Send Content-Type: application/json (application/merge-patch+json for PATCH), and send the body without Content-Encoding.',
  }),
  payload_too_large: problem({
    code: 'payload_too_large',
    status: 413,
    slug: 'payload-too-large',
    title: 'Payload too large',
    transient: false,
    summary: 'The request body is larger than the server accepts.',
    clientAction: 'Send a smaller body.',
  }),
  invalid_token: problem({
    code: 'invalid_token',
    status: 401,
    slug: 'invalid-token',
    title: 'Invalid access token',
    transient: false,
    summary:
      "The bearer access token is missing, malformed, expired, signed by an unknown key, or belongs to a revoked grant; or this server's keys signed it for another issuer or audience (minted with another ISSUER), and the detail then reads: The access token was issued by '<iss>', not by this server ('<issuer>'). or The access token is for the audience '<aud>', not for this server ('<issuer>').",
    clientAction:
      'Refresh the access token; if the refresh is refused with invalid_grant, run the authorization flow again.',
  }),
  insufficient_scope: problem({
    code: 'insufficient_scope',
    status: 403,
    slug: 'insufficient-scope',
    title: 'Insufficient scope',
    transient: false,
    summary:
      "The access token is valid but lacks the scope this operation needs; the detail reads: This operation needs the scope '<scope>'. (or '<scope>' or '<scope>'. when several alternatives suffice).",
    clientAction: 'Obtain a token with the scope named in the WWW-Authenticate header.',
  }),
  insufficient_role: problem({
    code: 'insufficient_role',
    status: 403,
    slug: 'insufficient-role',
    title: 'Insufficient role',
    transient: false,
    summary:
      "The access token is valid but its holder lacks a role this operation needs (RFC 9068 §2.2.3.1 `roles`, as the operation declares in `x-required-roles`); the detail reads: This operation needs the role '<role>'. (or '<role>' or '<role>'. when several suffice). On the REST API (/v2): the token's user holds one of the declared roles of /v2 or server-wide ones now (a token with no user holds none). On the admin API: a user's token is for the audience '{issuer}/admin/v1' and its user holds admin, user-manager or auditor, as the operation allows.",
    clientAction:
      'Ask an operator for the role (gatehouse roles assign), then refresh the access token: roles change at the next token.',
  }),
  step_up_required: problem({
    code: 'step_up_required',
    status: 401,
    slug: 'step-up-required',
    title: 'Sign in again for this operation',
    transient: false,
    summary:
      'A dangerous operation of the admin API (deleting a client, user, upstream provider, organization, group or role, a new client secret, rotating or retiring a signing key; the document marks each with x-step-up-max-age) was called with a user\'s access token whose sign-in (its auth_time, RFC 9068 §2.2.1) is older than 300 seconds, or that does not say when its user signed in. The WWW-Authenticate challenge reads error="insufficient_user_authentication" with max_age="300" (RFC 9470 §3). An admin client\'s own token (client_credentials) has no sign-in and is not asked. Nothing was changed.',
    clientAction:
      'Send the user through the authorization endpoint again with max_age=300 and prompt=login (OpenID Connect Core §3.1.2.1), then repeat the operation with the new access token.',
  }),
  invalid_dpop_proof: problem({
    code: 'invalid_dpop_proof',
    status: 401,
    slug: 'invalid-dpop-proof',
    title: 'Invalid DPoP proof',
    transient: false,
    summary:
      'The access token is DPoP-bound (RFC 9449) and its proof is missing or refused: the DPoP header is not one compact JWS of typ dpop+jwt signed with an accepted algorithm by the public key it carries, or its htm, htu, iat, ath or jti does not fit this request (a proof used before is refused), or it is signed by another key than the token is bound to. The WWW-Authenticate DPoP challenge lists the accepted algorithms.',
    clientAction:
      'Send Authorization: DPoP <token> with a fresh proof for this request (htm, htu without query, a new jti, ath of the token) signed by the key the token is bound to.',
  }),
  use_dpop_nonce: problem({
    code: 'use_dpop_nonce',
    status: 401,
    slug: 'use-dpop-nonce',
    title: 'DPoP nonce required',
    transient: true,
    summary:
      'The DPoP proof lacks the nonce this server provides, or carries one it no longer accepts (RFC 9449 §9). The response carries the current nonce in its DPoP-Nonce header.',
    clientAction: 'Make a new proof whose nonce claim is the DPoP-Nonce header of this response and retry once.',
  }),
  owner_required: problem({
    code: 'owner_required',
    status: 403,
    slug: 'owner-required',
    title: 'A user is required',
    transient: false,
    summary:
      "The collection's records belong to the users who created them (x-gatehouse-ownership: owner in the OpenAPI document), and the access token acts for no user: it was issued to the client itself (the client_credentials grant). The document's x-gatehouse-client-access says what such a token may do there: none (the default for owned records), read, or read-write.",
    clientAction:
      "Call the API with an access token a user granted (the authorization code or device flow); a service that must reach every user's records asks the operator to declare x-gatehouse-client-access for the collection.",
  }),
  not_found: problem({
    code: 'not_found',
    status: 404,
    slug: 'not-found',
    title: 'Not found',
    transient: false,
    summary: 'There is no resource at this URL.',
    clientAction: 'Check the URL; the server metadata and the OpenAPI document list what exists.',
  }),
  method_not_allowed: problem({
    code: 'method_not_allowed',
    status: 405,
    slug: 'method-not-allowed',
    title: 'Method not allowed',
    transient: false,
    summary: 'The resource exists but does not support this HTTP method.',
    clientAction: 'Use one of the methods listed in the Allow header.',
  }),
  precondition_failed: problem({
    code: 'precondition_failed',
    status: 412,
    slug: 'precondition-failed',
    title: 'Precondition failed',
    transient: false,
    summary: 'If-Match names a version of the record that is no longer current.',
    clientAction: 'Fetch the record again, reapply your change, and send it with the new ETag.',
  }),
  invalid_operator_input: problem({
    code: 'invalid_operator_input',
    status: 422,
    slug: 'invalid-operator-input',
    title: 'Invalid operator input',
    transient: false,
    summary:
      'An administrative request names something that does not exist, already exists, or breaks a rule of the server (for example a scope wider than the client may use). The detail says which.',
    clientAction: 'Correct the request as the detail says and send it again; the same request will be refused again.',
  }),
  conflict: problem({
    code: 'conflict',
    status: 409,
    slug: 'conflict',
    title: 'Already exists',
    transient: false,
    summary:
      'An administrative request creates something whose identifier is taken: a client id or a username that already exists. Nothing was written.',
    clientAction:
      'Choose another identifier, or change the existing one (PUT) instead of creating it; the same request will be refused again.',
  }),
  invalid_email_address: problem({
    code: 'invalid_email_address',
    status: 422,
    slug: 'invalid-email-address',
    title: 'This e-mail address cannot receive mail',
    transient: false,
    summary:
      'The e-mail address is not one address of the form name@domain: it is empty, longer than 254 characters (RFC 5321 §4.5.3.1.3) or with a name part over 64, holds a display name, a group, several addresses, quotes, spaces, a line break or another control character (a line break could add a header to the message), or its domain is not a valid host name. Nothing was queued and no mail was sent.',
    clientAction: 'Correct the address (for example alice@example.com) and send it again.',
  }),
  invalid_email_message: problem({
    code: 'invalid_email_message',
    status: 422,
    slug: 'invalid-email-message',
    title: 'This e-mail could not be queued',
    transient: false,
    summary:
      'A message given to the outbox breaks a rule of mail: its subject line holds a line break or another control character (which could add a header to the message) or is over 998 characters (RFC 5322 §2.1.1), a body is empty, or its kind or locale is malformed. Nothing was queued and no mail was sent; the detail says which part.',
    clientAction:
      'This is a fault of the server or of the text it was given (for example a name with a line break shown in the subject); correct that text and try again, or tell the operator.',
  }),
  password_reset_link_invalid: problem({
    code: 'password_reset_link_invalid',
    status: 400,
    slug: 'password-reset-link-invalid',
    title: 'This password reset link no longer works',
    transient: false,
    summary:
      'The link to set a new password was used already, is more than 30 minutes old, was ended by a later reset of the same account, or is not a link this server sent. Each link works once. Nothing was changed.',
    clientAction:
      'Ask for a new link: choose "Forgot your password?" on the sign-in page and open the newest mail it sends.',
  }),
  too_many_password_resets: problem({
    code: 'too_many_password_resets',
    status: 429,
    slug: 'too-many-password-resets',
    title: 'Too many password reset requests',
    transient: true,
    summary:
      'Password reset mails were asked for too often: for this username or e-mail address (by default 5 an hour), or from this network address (20 an hour). No mail was sent for this request. Operators set the limits with RATE_LIMIT_PASSWORD_RESET_ACCOUNT and RATE_LIMIT_PASSWORD_RESET_ADDRESS.',
    clientAction:
      'Wait for the time given in the Retry-After header (shown on the page), then ask again; meanwhile, open the newest mail already sent.',
  }),
  password_not_accepted: problem({
    code: 'password_not_accepted',
    status: 422,
    slug: 'password-not-accepted',
    title: 'Choose another password',
    transient: false,
    summary:
      'The new password was refused (NIST SP 800-63B §3.1.1.2): it is shorter than 8 characters, longer than 1024, or one of the passwords that are common, were leaked in breaches, or are easily guessed from them or from the account itself (its username, e-mail address or name). No rule asks for digits, capitals or symbols. Nothing was changed.',
    clientAction:
      'Choose a longer password that is not a common word or phrase, for example several unrelated words; a password manager can make one.',
  }),
  invitation_link_invalid: problem({
    code: 'invitation_link_invalid',
    status: 400,
    slug: 'invitation-link-invalid',
    title: 'This invitation no longer works',
    transient: false,
    summary:
      "The invitation link was used already, is older than the operator allowed (7 days unless said otherwise), was revoked, is for an address an account has taken since or an account that changed its address or was disabled, is another account's, or is not a link this server sent. Each invitation works once. Nothing was changed.",
    clientAction: 'Ask whoever invited you for a new invitation. If you already accepted it, sign in as usual.',
  }),
  email_verification_link_invalid: problem({
    code: 'email_verification_link_invalid',
    status: 400,
    slug: 'email-verification-link-invalid',
    title: 'This verification link no longer works',
    transient: false,
    summary:
      'The link to verify an e-mail address was used already, is more than 24 hours old, was ended by a newer verification mail, the account has another address since, or it is not a link this server sent. Each link works once. Nothing was changed.',
    clientAction:
      'Sign in and open your account page: it says whether the address is verified, and sends a new mail if it is not.',
  }),
  verification_code_invalid: problem({
    code: 'verification_code_invalid',
    status: 401,
    slug: 'verification-code-invalid',
    title: 'That verification code did not work',
    transient: false,
    summary:
      'The six-digit code is not the one of the newest verification mail, was used already, or is more than 24 hours old. After 10 wrong codes in an hour for one account, no code is checked for a while (429, with Retry-After). Nothing was changed.',
    clientAction:
      'Type the code of the newest mail, or open its link instead; or ask for a new mail from the account page.',
  }),
  email_address_missing: problem({
    code: 'email_address_missing',
    status: 403,
    slug: 'email-address-missing',
    title: 'This account has no e-mail address to verify',
    transient: false,
    summary:
      'The server requires a verified e-mail address before a sign-in completes (EMAIL_VERIFICATION=required), and this account has no address at all, so no code can be sent. The password was right; the sign-in stops here and nothing was changed.',
    clientAction:
      'Ask an administrator to add an e-mail address to the account (gatehouse users update NAME --email ADDRESS, or the admin API), then sign in again.',
  }),
  sign_up_needs_invitation: problem({
    code: 'sign_up_needs_invitation',
    status: 403,
    slug: 'sign-up-needs-invitation',
    title: 'Accounts are created by invitation only',
    transient: false,
    summary:
      'This server creates accounts only for people invited by its operator (SIGN_UP=invite): the sign-up form was opened without an invitation. No account was created.',
    clientAction:
      'Open the invitation mail you were sent and follow its link, or ask the operator for an invitation. If you have an account already, sign in.',
  }),
  sign_up_address_not_accepted: problem({
    code: 'sign_up_address_not_accepted',
    status: 422,
    slug: 'sign-up-address-not-accepted',
    title: 'This e-mail address cannot be used to sign up',
    transient: false,
    summary:
      'The e-mail address of a sign-up is not an address (one @, a domain with a dot, no spaces, quotes, angle brackets, commas or control characters, at most 254 characters, RFC 5321 §4.5.3.1.3), or its domain is not one of those the operator allows (SIGN_UP_DOMAINS). No account was created and no mail was sent.',
    clientAction:
      'Type your address as you receive mail at it; when the page names the allowed domains, use an address of one of them.',
  }),
  sign_up_name_not_accepted: problem({
    code: 'sign_up_name_not_accepted',
    status: 422,
    slug: 'sign-up-name-not-accepted',
    title: 'This name cannot be used',
    transient: false,
    summary:
      'The name of a sign-up is empty, longer than 128 characters, or holds a line break or another control character. No account was created and no mail was sent.',
    clientAction: 'Type the name you want applications to show, on one line.',
  }),
  too_many_sign_ups: problem({
    code: 'too_many_sign_ups',
    status: 429,
    slug: 'too-many-sign-ups',
    title: 'Too many sign-ups',
    transient: true,
    summary:
      'Accounts were asked for too often: from this network address (by default 10 an hour), or with addresses of this e-mail domain (50 an hour). No account was created and no mail was sent for this request. Operators set the limits with RATE_LIMIT_SIGN_UP_ADDRESS and RATE_LIMIT_SIGN_UP_DOMAIN.',
    clientAction: 'Wait for the time given in the Retry-After header (shown on the page), then sign up again.',
  }),
  account_deletion_not_confirmed: problem({
    code: 'account_deletion_not_confirmed',
    status: 422,
    slug: 'account-deletion-not-confirmed',
    title: 'Type your username to delete the account',
    transient: false,
    summary:
      'Deleting an account asks for its username, typed as confirmation, and a sign-in made in the last 10 minutes: what was typed is not the username of the signed-in account. Nothing was deleted.',
    clientAction:
      'Type your username exactly as the page shows it, then delete again; or leave the page to keep the account.',
  }),
  email_change_address_not_accepted: problem({
    code: 'email_change_address_not_accepted',
    status: 422,
    slug: 'email-change-address-not-accepted',
    title: 'This e-mail address cannot be used',
    transient: false,
    summary:
      'The new address typed on the account page is not an address (one @, a domain with a dot, no spaces, quotes, angle brackets, commas, line breaks or other control characters, at most 254 characters, RFC 5321 §4.5.3.1.3). The address of the account did not change and no mail was sent.',
    clientAction: 'Go back to the account page and type the new address as you receive mail at it.',
  }),
  upstream_unavailable: problem({
    code: 'upstream_unavailable',
    status: 503,
    slug: 'upstream-unavailable',
    title: 'Your identity provider is not answering',
    transient: true,
    summary:
      'Signing in goes through an identity provider that Gatehouse trusts (federation), and it did not answer in time, answered with a server error, or its discovery document could not be read. Nothing was signed in and nothing was changed.',
    clientAction:
      'Wait a moment and choose Try again. If it keeps failing, the identity provider is down or unreachable from Gatehouse: tell the operator, or sign in another way.',
  }),
  upstream_misconfigured: problem({
    code: 'upstream_misconfigured',
    status: 500,
    slug: 'upstream-misconfigured',
    title: 'Sign-in with this identity provider is not set up correctly',
    transient: false,
    summary:
      "Gatehouse refused to send a request to the identity provider, so the provider was never asked: its configuration breaks a rule of Gatehouse's own (the detail names it), such as plain http to a host that is not loopback. Nothing was signed in. The provider is not known to be down.",
    clientAction:
      "Sign in another way, and tell the operator the detail. Operator: fix the provider's entry (docs/federation.md, Configuring upstreams) and apply it again.",
  }),
  upstream_access_denied: problem({
    code: 'upstream_access_denied',
    status: 403,
    slug: 'upstream-access-denied',
    title: 'Your identity provider refused the sign-in',
    transient: false,
    summary:
      'The identity provider answered access_denied (RFC 6749 §4.1.2.1): you cancelled, or it does not let your account use this application. Nothing was signed in.',
    clientAction:
      'Start signing in again from the application, or ask the administrator of your identity provider for access.',
  }),
  upstream_login_required: problem({
    code: 'upstream_login_required',
    status: 401,
    slug: 'upstream-login-required',
    title: 'Your identity provider needs you to sign in',
    transient: false,
    summary:
      'The identity provider answered login_required, interaction_required or consent_required (OIDC Core §3.1.2.6): it could not sign you in without showing you a page. Nothing was signed in.',
    clientAction: 'Start signing in again from the application; the identity provider will show its sign-in page.',
  }),
  upstream_sign_in_failed: problem({
    code: 'upstream_sign_in_failed',
    status: 400,
    slug: 'upstream-sign-in-failed',
    title: 'Your identity provider could not sign you in',
    transient: false,
    summary:
      'The identity provider sent the browser back with an error other than access_denied or login_required (RFC 6749 §4.1.2.1; the detail names it), or a link carrying such an error was opened. Nothing was signed in.',
    clientAction:
      'Start signing in again from the application. If it keeps happening, tell the operator the error in the detail: the provider may refuse what Gatehouse asks of it (a scope, the client).',
  }),
  upstream_code_refused: problem({
    code: 'upstream_code_refused',
    status: 400,
    slug: 'upstream-code-refused',
    title: 'This sign-in could not be completed',
    transient: false,
    summary:
      'The identity provider refused the code this browser brought back (invalid_grant or invalid_request, RFC 6749 §5.2): it was used already, expired, or was issued to another sign-in, for instance a link opened in another browser. It was refused and recorded; nothing was signed in.',
    clientAction:
      'Start signing in again from the application, in this browser, and finish it there; a sign-in link cannot be opened twice or in another browser.',
  }),
  upstream_error: problem({
    code: 'upstream_error',
    status: 502,
    slug: 'upstream-error',
    title: 'Your identity provider answered with an error',
    transient: false,
    summary:
      "The identity provider answered Gatehouse itself with something it cannot use: an OAuth error at its token or userinfo endpoint that is not about the code (invalid_client, unauthorized_client: the detail names it), a discovery document naming another issuer, or an answer that is not the protocol's. Nothing was signed in.",
    clientAction:
      "Sign in another way, and tell the operator the detail: Gatehouse's registration at the provider, or the provider itself, needs fixing.",
  }),
  upstream_token_invalid: problem({
    code: 'upstream_token_invalid',
    status: 400,
    slug: 'upstream-token-invalid',
    title: 'The identity provider’s answer was refused',
    transient: false,
    summary:
      'The ID token or the callback from the identity provider failed validation (OIDC Core §3.1.3.7, RFC 9207): unsigned (alg none) or badly signed, issued by another issuer, for another audience, expired, with a wrong nonce, or a callback naming another issuer. It was refused and recorded in the audit trail; nothing was signed in.',
    clientAction:
      'Start signing in again from the application. If it keeps happening, tell the operator: the answer may have been tampered with.',
  }),
  federation_state_invalid: problem({
    code: 'federation_state_invalid',
    status: 400,
    slug: 'federation-state-invalid',
    title: 'This sign-in has expired or was already used',
    transient: false,
    summary:
      'The answer of the identity provider carried a state that Gatehouse did not send to this browser, sent more than ten minutes ago, or already used (RFC 6749 §10.12, RFC 9700 §4.7). It may be a forged or replayed link. It was refused and recorded; nothing was signed in.',
    clientAction: 'Go back to the application and start signing in again, in the same browser.',
  }),
  federation_no_provider: problem({
    code: 'federation_no_provider',
    status: 404,
    slug: 'federation-no-provider',
    title: 'No identity provider for that address',
    transient: false,
    summary:
      'The e-mail address typed belongs to a domain that no identity provider of this server serves, or the provider chosen is no longer configured.',
    clientAction: 'Check the address, or sign in with your username and password.',
  }),
  federation_no_account: problem({
    code: 'federation_no_account',
    status: 403,
    slug: 'federation-no-account',
    title: 'No account for this sign-in',
    transient: false,
    summary:
      'The identity provider signed you in, but no local account is linked to that identity and the operator does not let this provider create accounts on first sign-in.',
    clientAction:
      'Ask the operator to create your account, or sign in with your username and password and link the provider from there.',
  }),
  federation_unlink_refused: problem({
    code: 'federation_unlink_refused',
    status: 409,
    slug: 'federation-unlink-refused',
    title: 'This is your only way to sign in',
    transient: false,
    summary:
      'Unlinking this identity provider would leave the account with no way to sign in: it has no password and no other linked provider. Nothing was changed.',
    clientAction: 'Ask the operator to set a password for your account first, then unlink the provider.',
  }),
  organization_domain_public: problem({
    code: 'organization_domain_public',
    status: 422,
    slug: 'organization-domain-public',
    title: 'Public mail domain',
    transient: false,
    summary:
      'An administrative request gives an organization an e-mail domain of a public mail provider (gmail.com, outlook.com, yahoo.com and the like) or of disposable addresses. Anyone can have an address there, so such a domain says nothing about who works for the organization: it would make strangers members at sign-in. Nothing was written.',
    clientAction:
      'Give the organization a domain it owns (its company domain). Members with addresses at a public provider are added one by one (gatehouse orgs members add).',
  }),
  organization_not_member: problem({
    code: 'organization_not_member',
    status: 403,
    slug: 'organization-not-member',
    title: 'You are not a member of this organization',
    transient: false,
    summary:
      'The application asked to sign you in for an organization (its organization parameter) that does not exist on this server or that your account is not a member of. Nothing was granted.',
    clientAction:
      'Go back to the application and choose one of your organizations, or ask an administrator of the organization to add you.',
  }),
  organization_sign_in_method: problem({
    code: 'organization_sign_in_method',
    status: 403,
    slug: 'organization-sign-in-method',
    title: 'Your organization asks you to sign in another way',
    transient: false,
    summary:
      "You signed in in a way that the organization the application asked for does not allow (its sign-in methods: a password, a passkey, or the organization's identity provider). Nothing was granted.",
    clientAction:
      "Sign out, then sign in again with one of the ways the details name (for example with your passkey, or through your company's identity provider), or ask an administrator of the organization.",
  }),
  internal_error: problem({
    code: 'internal_error',
    status: 500,
    slug: 'internal-error',
    title: 'Internal server error',
    transient: true,
    summary: 'The server met an unexpected condition; nothing was written.',
    clientAction: 'Retry with exponential backoff; report the problem to the operator if it persists.',
  }),
  service_unavailable: problem({
    code: 'service_unavailable',
    status: 503,
    slug: 'service-unavailable',
    title: 'Service unavailable',
    transient: true,
    summary: 'The server is overloaded or its store is busy; nothing was written.',
    clientAction: 'Retry after the Retry-After delay, with exponential backoff.',
  }),
  not_ready: problem({
    code: 'not_ready',
    status: 503,
    slug: 'not-ready',
    title: 'Not ready',
    transient: true,
    summary:
      "The readiness probe (GET /health/ready) found the server unable to serve: its store did not answer within the probe's budget, the database lacks migrations this version needs, or no signing key could be loaded. The detail says which. The process itself is alive (GET /health/live).",
    clientAction:
      'Load balancers: send requests to another instance until this one answers 200 again. Operators: start or reach the database, run gatehouse migrate, or gatehouse keys rotate --now, as the detail says.',
  }),
  invalid_authorization_request: problem({
    code: 'invalid_authorization_request',
    status: 400,
    slug: 'invalid-authorization-request',
    title: 'This sign-in link is not valid',
    transient: false,
    summary:
      'The authorization request names no client or an unknown one, or a redirect_uri that is missing or not registered for the client. The server cannot know where it would be safe to send you back, so it stops here instead of redirecting (RFC 6749 §4.1.2.1).',
    clientAction:
      'Go back to the application and tell its developer. The developer must send a registered client_id and exactly one of its registered redirect URIs, character for character (gatehouse clients add --redirect-uri).',
  }),
  client_metadata_document_unavailable: problem({
    code: 'client_metadata_document_unavailable',
    status: 400,
    slug: 'client-metadata-document-unavailable',
    title: "This application's description could not be fetched",
    transient: true,
    summary:
      'The client_id is the https URL of a client ID metadata document (draft-ietf-oauth-client-id-metadata-document), and the server could not fetch it safely: its host resolves to a private, loopback, link-local or otherwise non-public address, the URL answered with a redirect (never followed), an error status, a document over the size limit, or nothing within the time limit. The detail says which. Nothing was signed in or granted.',
    clientAction:
      'Go back to the application and tell its developer. The developer must serve the document at exactly the client_id URL, over https from a public address, with status 200, no redirect, and small (a few kilobytes). Operators of a private deployment can allow addresses with CLIENT_ID_METADATA_ALLOW_ADDRESSES (docs/agents.md).',
  }),
  client_metadata_document_invalid: problem({
    code: 'client_metadata_document_invalid',
    status: 400,
    slug: 'client-metadata-document-invalid',
    title: "This application's description is not valid",
    transient: false,
    summary:
      'The client ID metadata document was fetched but cannot describe this client: it is not a JSON object, its client_id is not exactly the URL it was fetched from, it asks for a shared secret (client_secret_basic, client_secret_post or a client_secret field), private_key_jwt without its keys, grants other than authorization_code, the device code grant and refresh_token (and at least one of the first two), or redirect URIs that could not be registered (https, or http on a loopback IP literal). The detail says which.',
    clientAction:
      'Go back to the application and tell its developer: the document must follow draft-ietf-oauth-client-id-metadata-document §4 and the redirect URI rules of registered clients (docs/agents.md).',
  }),
  client_metadata_document_not_allowed: problem({
    code: 'client_metadata_document_not_allowed',
    status: 400,
    slug: 'client-metadata-document-not-allowed',
    title: 'This application is not allowed here',
    transient: false,
    summary:
      "The client_id is the URL of a client ID metadata document on a host this server's operator does not accept (CLIENT_ID_METADATA_DOCUMENTS=allowlist without the host in CLIENT_ID_METADATA_ALLOW_HOSTS, or the host in CLIENT_ID_METADATA_DENY_HOSTS), or not a URL such a document may have (https, a path, no fragment, credentials or dot segments). Nothing was fetched.",
    clientAction:
      "Ask the server's operator to allow the application's host, or use a client registered with the server (gatehouse clients add, or /register).",
  }),
  invalid_request_uri: problem({
    code: 'invalid_request_uri',
    status: 400,
    slug: 'invalid-request-uri',
    title: 'This sign-in link has expired or was already used',
    transient: false,
    summary:
      'The authorization request names a request_uri that is unknown, expired (a pushed request lives about a minute), already used once, or pushed by another client than its client_id names, or a request_uri of a kind this server does not fetch (RFC 9126 §4, RFC 9101 §6.2). Without the pushed request the server cannot know where it would be safe to send you back.',
    clientAction:
      'Go back to the application and start again. The developer must push the authorization request (POST /par) just before sending the browser to /authorize with client_id and the request_uri it answered, once.',
  }),
  invalid_request_object: problem({
    code: 'invalid_request_object',
    status: 400,
    slug: 'invalid-request-object',
    title: 'This sign-in link is not signed correctly',
    transient: false,
    summary:
      "The authorization request carries a request object (the request parameter, RFC 9101) that is not a JWT signed by one of the client's registered keys with an accepted algorithm, or whose iss is not the client_id, whose aud is not this server's issuer, that has expired or is not yet valid, or whose client_id differs from the request's (RFC 9101 §6.3).",
    clientAction:
      "Go back to the application and tell its developer: sign the request object with a key of the client's jwks or jwks_uri (ES256, PS256, RS256, EdDSA and their kin), with iss the client_id, aud the issuer, and a short exp.",
  }),
  invalid_logout_request: problem({
    code: 'invalid_logout_request',
    status: 400,
    slug: 'invalid-logout-request',
    title: 'This sign-out link is not valid',
    transient: false,
    summary:
      'The logout request names a post_logout_redirect_uri that is not registered for the application, names none of its applications, or carries an id_token_hint this server did not issue. The server cannot know where it would be safe to send you back, so it stops here instead of redirecting (OpenID Connect RP-Initiated Logout 1.0 §3).',
    clientAction:
      'You can sign out on the plain sign-out page. The developer must send an id_token_hint or client_id, and exactly one of the post-logout redirect URIs registered for the client (gatehouse clients add --post-logout-redirect-uri), character for character.',
  }),
  csrf_token_invalid: problem({
    code: 'csrf_token_invalid',
    status: 403,
    slug: 'csrf-token-invalid',
    title: 'This form has expired',
    transient: false,
    summary:
      'The form was sent without its security token, with a wrong one, or after the sign-in session ended, so it may not have come from this site. Nothing was changed and nothing was granted.',
    clientAction:
      'Go back to the application and start signing in again. If it keeps happening, allow cookies for this site.',
  }),
  login_failed: problem({
    code: 'login_failed',
    status: 401,
    slug: 'login-failed',
    title: 'Wrong username or password',
    transient: false,
    summary:
      'The username and password do not match an account. The same answer is given for an unknown username and a wrong password.',
    clientAction:
      'Check the username and password and try again. After 10 failed attempts in an hour for one username (or 100 from one address), further attempts are refused for a while.',
  }),
  passkey_sign_in_failed: problem({
    code: 'passkey_sign_in_failed',
    status: 401,
    slug: 'passkey-sign-in-failed',
    title: 'That passkey did not work',
    transient: false,
    summary:
      "The passkey the browser offered was not accepted: it is not registered here (or was removed), the sign-in page had expired or was already used (each page asks once, for 5 minutes), the browser reported another site or no user verification (a PIN, fingerprint or face), or the authenticator's signature counter went backwards, a sign of a cloned key. Every refusal is recorded in the audit trail.",
    clientAction:
      'Try again from a freshly loaded sign-in page, or sign in with your password. If the passkey was removed from your account, add it again from the account page. After 10 failed attempts in an hour for one account (or 100 from one address), further attempts are refused for a while.',
  }),
  passkey_enrolment_failed: problem({
    code: 'passkey_enrolment_failed',
    status: 400,
    slug: 'passkey-enrolment-failed',
    title: 'The passkey was not added',
    transient: false,
    summary:
      'The new passkey could not be verified: the account page had expired or was already used (each page asks once, for 5 minutes), the browser reported another site, the authenticator did no user verification, or the passkey is already registered. Nothing was stored.',
    clientAction: 'Reload the account page and add the passkey again.',
  }),
  too_many_login_attempts: problem({
    code: 'too_many_login_attempts',
    status: 429,
    slug: 'too-many-login-attempts',
    title: 'Too many sign-in attempts',
    transient: true,
    summary:
      'Sign-in was refused before the password was checked: too many failed attempts for this username or from this address (by default 10 per hour per username and 100 per hour per address, then one more every 6 minutes), or too many attempts of any kind from this address or for this application (60 and 600 a minute). Operators set the limits with RATE_LIMIT_LOGIN_*.',
    clientAction: 'Wait for the time given in the Retry-After header (shown on the page), then try again.',
  }),
  user_code_invalid: problem({
    code: 'user_code_invalid',
    status: 400,
    slug: 'user-code-invalid',
    title: 'That code did not work',
    transient: false,
    summary:
      'The code typed on the device page is not one a device is waiting with: mistyped, expired (codes last 10 minutes), or already approved or denied. Case and dashes do not matter. Every wrong code is counted and recorded (RFC 8628 §5.1).',
    clientAction:
      'Check the code shown on the device and type it again. If the device shows no code any more, start the sign-in on the device again for a new one.',
  }),
  too_many_user_code_attempts: problem({
    code: 'too_many_user_code_attempts',
    status: 429,
    slug: 'too-many-user-code-attempts',
    title: 'Too many wrong codes',
    transient: true,
    summary:
      "The device page refused the code before checking it: too many wrong codes from this address (by default 20 per hour), or too many attempts of any kind (60 a minute). This stops anyone guessing the codes of other people's devices (RFC 8628 §5.1). Operators set the limits with RATE_LIMIT_USER_CODE_*.",
    clientAction: 'Wait for the time given in the Retry-After header (shown on the page), then try again.',
  }),
  second_factor_failed: problem({
    code: 'second_factor_failed',
    status: 401,
    slug: 'second-factor-failed',
    title: 'That code did not work',
    transient: false,
    summary:
      'The second step of a sign-in was refused: the code from the authenticator app is wrong, more than 30 seconds away from now, or was used already (each code signs in once, RFC 6238 §5.2); the recovery code is wrong or was used already; or, when setting up two-step verification, the code does not match the key just shown. Nothing was stored. Wrong codes count with wrong passwords: after 10 failures in an hour for one user (or 100 from one address), further attempts are refused for a while.',
    clientAction:
      'Type the code the app shows now (or wait for the next one if you just used it), or use one of your recovery codes. If you lost both, ask the operator to reset your second factor (gatehouse users reset-factors).',
  }),
  fresh_sign_in_required: problem({
    code: 'fresh_sign_in_required',
    status: 403,
    slug: 'fresh-sign-in-required',
    title: 'Sign in again to change this',
    transient: false,
    summary:
      'Every change to how you sign in (setting up or turning off two-step verification, new recovery codes, adding, renaming or removing a passkey, unlinking an identity provider) needs a sign-in made in the last 10 minutes, so that someone who finds a signed-in browser cannot add a way in or take one away. Nothing was changed.',
    clientAction: "Choose Confirm it's you on the account page (your password or a passkey), then make the change.",
  }),
  // The HTTP layer's own refusals, before any route: the request cannot be read as HTTP/1.1. On the
  // OAuth endpoints they are answered as invalid_request (request_unreadable) instead.
  malformed_request: problem({
    code: 'malformed_request',
    status: 400,
    slug: 'malformed-request',
    title: 'Malformed request',
    transient: false,
    summary:
      'The request is not valid HTTP/1.1: an unknown method, a CONNECT request (the server is no proxy), a request line without HTTP/1.1 (HTTP/0.9), a malformed request line or header field, a body shorter than its Content-Length, or a URL path that is not valid percent-encoded UTF-8.',
    clientAction:
      'Send a well-formed HTTP/1.1 request with the path percent-encoded as UTF-8; sending the same bytes again fails again.',
  }),
  request_header_too_large: problem({
    code: 'request_header_too_large',
    status: 431,
    slug: 'request-header-too-large',
    title: 'Request header fields too large',
    transient: false,
    summary:
      'The request line and header fields together are larger than the server accepts (16 KiB unless the operator set MAX_HEADER_BYTES), for example an authorization URL with a very long state.',
    clientAction: 'Shorten the URL and the header fields; send large values in a request body.',
  }),
  request_timeout: problem({
    code: 'request_timeout',
    status: 408,
    slug: 'request-timeout',
    title: 'Request timeout',
    transient: true,
    summary:
      'The request did not arrive in time: its headers within 10 seconds, or the whole request within 30 seconds (unless the operator set HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS). Nothing was done.',
    clientAction: 'Send the request again, without pausing in the middle of it.',
  }),
};

const CODE_BY_SLUG: ReadonlyMap<string, ProblemCode> = new Map(Object.values(PROBLEMS).map((p) => [p.slug, p.code]));

/**
 * The catalog code of a problem `type`: `/problems/missing-required-field`, or an absolute URL
 * ending so, is `missing_required_field`. Undefined for a type the catalog does not know.
 */
export function problemCodeOfType(type: string): ProblemCode | undefined {
  const slug = /\/problems\/([a-z0-9-]+)$/.exec(type)?.[1];
  return slug === undefined ? undefined : CODE_BY_SLUG.get(slug);
}

/** One field-level error inside a problem body. */
export interface ProblemFieldError {
  readonly code: ProblemCode;
  readonly field: string;
  readonly pointer: string;
  readonly detail: string;
}

/**
 * A problem body as Gatehouse sends it, the REST API's error body and the client's to read.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9457#section-3 RFC 9457 §3
 */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly errors?: readonly ProblemFieldError[];
}
