/**
 * Table shapes as the database holds them. Times are epoch seconds; booleans are 0/1 integers and
 * lists are JSON text, so one schema serves SQLite and PostgreSQL alike.
 */
export interface Database {
  clients: ClientsTable;
  grants: GrantsTable;
  refresh_tokens: RefreshTokensTable;
  authorization_codes: AuthorizationCodesTable;
  signing_keys: SigningKeysTable;
  records: RecordsTable;
  users: UsersTable;
  browser_sessions: BrowserSessionsTable;
  audit_events: AuditEventsTable;
  rate_limits: RateLimitsTable;
  server_secrets: ServerSecretsTable;
  grant_authentications: GrantAuthenticationsTable;
  device_authorizations: DeviceAuthorizationsTable;
  server_settings: ServerSettingsTable;
  registration_tokens: RegistrationTokensTable;
  client_registrations: ClientRegistrationsTable;
  client_id_metadata_documents: ClientIdMetadataDocumentsTable;
  upstream_providers: UpstreamProvidersTable;
  federated_identities: FederatedIdentitiesTable;
  federation_states: FederationStatesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebAuthnChallengesTable;
  pushed_authorization_requests: PushedAuthorizationRequestsTable;
  client_assertion_jtis: ClientAssertionJtisTable;
  dpop_proofs: DpopProofsTable;
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  row_epochs: RowEpochsTable;
  mail_outbox: MailOutboxTable;
  access_groups: AccessGroupsTable;
  group_members: GroupMembersTable;
  access_roles: AccessRolesTable;
  role_assignments: RoleAssignmentsTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  organization_domains: OrganizationDomainsTable;
  account_links: AccountLinksTable;
  client_presentations: ClientPresentationsTable;
}

/** 0028: a group of users; a member of a group is a member of its ancestors. */
export interface AccessGroupsTable {
  id: string;
  name: string;
  parent_id: string | null;
  created_at: number;
}

/** 0028: a user (by `users.subject`) in a group. */
export interface GroupMembersTable {
  group_id: string;
  subject: string;
  added_at: number;
}

/** 0028: a role, unique by name within its scope (`server`, `api` or `organization`). */
export interface AccessRolesTable {
  id: string;
  name: string;
  scope_kind: string;
  /** The API's audience for `api`, the organization's id for `organization`, '' for `server`. */
  scope_id: string;
  description: string | null;
  /** 1 for the admin API's roles, made by the migration and never removed. */
  built_in: number;
  created_at: number;
}

/** 0028: a role given to a user (its subject), a group (its id) or a client (its id). */
export interface RoleAssignmentsTable {
  role_id: string;
  principal_kind: string;
  principal_id: string;
  assigned_at: number;
}

/** An organization (0031, ./organization-repository.ts): a tenant with its members, domains and policy. */
export interface OrganizationsTable {
  id: string;
  /** Lower case letters, digits and hyphens; unique; the `organization` parameter may name it. */
  slug: string;
  name: string;
  /** JSON array of the role names defined for the organization. */
  roles: string;
  /** JSON object of the organization's sign-in policy (organizations/policy.ts). */
  policy: string;
  created_at: number;
  updated_at: number;
}

/** A user's membership of an organization (0031), with the organization roles it holds. */
export interface OrganizationMembersTable {
  organization_id: string;
  /** The user's `users.subject`. */
  subject: string;
  /** JSON array of role names, each one of the organization's. */
  roles: string;
  /** How the membership was made: `operator` (CLI, admin API) or `domain` (JIT at sign-in). */
  source: string;
  joined_at: number;
}

/** An e-mail domain of an organization (0031): one organization at most; it counts once verified. */
export interface OrganizationDomainsTable {
  /** Lower case, without a trailing dot. */
  domain: string;
  organization_id: string;
  verified_at: number | null;
  created_at: number;
}

/**
 * A message of the mail outbox (0027, ./mail-repository.ts). Times are epoch milliseconds: retries
 * and leases are shorter than a second in the tests and seconds apart in production.
 */
export interface MailOutboxTable {
  id: string;
  /** What the message is for (`test`, later `password_reset`, …); metadata, kept. */
  kind: string;
  /** The recipient's address, checked at enqueue (mail/message.ts); kept. */
  recipient: string;
  /** The user the message is about (`users.subject`), when one is; kept. */
  subject: string | null;
  locale: string;
  /** The stable Message-ID every attempt sends, `<id@host>`. */
  message_id: string;
  /** Subject line, text and HTML bodies and links, sealed (JSON); null once sent or failed for good. */
  content: string | null;
  /** `queued`, `sending` (under a lease), `sent` or `failed`. */
  state: string;
  /** Attempts begun (counted at each claim). */
  attempts: number;
  created_ms: number;
  /** When a queued message is due. */
  next_attempt_ms: number;
  /** The claim of the node sending it: a random token and when it lapses; null unless `sending`. */
  lease_token: string | null;
  lease_until_ms: number | null;
  /** The last attempt's failure (an SMTP reply code or an error code), never a body. */
  last_error: string | null;
  /** When it was sent or failed for good. */
  finished_ms: number | null;
}

/**
 * A link sent by mail to act on an account (0029, ./account-link-repository.ts): a password reset
 * for now. Stored as the SHA-256 digest of the secret the link carries, never the secret.
 */
export interface AccountLinksTable {
  /** SHA-256 of the link's secret, base64url. */
  id: string;
  /** What the link does: `password_reset`, `email_verification`. */
  purpose: string;
  /** The user it acts on, by its subject (a later user of the same name is another). */
  subject: string;
  /** The address it was sent to. */
  email: string;
  created_at: number;
  expires_at: number;
  /** When it was used; null while it may still be. A link works once. */
  used_at: number | null;
  /** JSON: what the link carries besides (the authorization request a sign-in goes back to). */
  data: string;
}

/** The row epoch (0026, ./row-cache.ts): one row that triggers advance on every change a cached row could miss. */
export interface RowEpochsTable {
  name: string;
  /** int8 on PostgreSQL, parsed as a number. */
  epoch: number;
}

/** DPoP proofs seen (0021), by SHA-256 of key thumbprint and `jti`, until their window closes (RFC 9449 §11.1). */
export interface DpopProofsTable {
  id: string;
  expires_at: number;
}

/** A pushed authorization request (RFC 9126 §2, 0022), until used once or expired. */
export interface PushedAuthorizationRequestsTable {
  /** SHA-256 of the random part of its request_uri, hex. */
  id: string;
  client_id: string;
  /** The validated authorization request's parameters, as a query string. */
  parameters: string;
  /** Before use: the request_uri's expiry; after: the end of the sign-in that used it. */
  expires_at: number;
  /** SHA-256 of the handle of the sign-in that used it, hex; null until used. */
  flow_digest: string | null;
}

/** The `jti` of a client assertion (RFC 7523 §3 item 7, 0022), kept until the assertion expires. */
export interface ClientAssertionJtisTable {
  client_id: string;
  jti: string;
  expires_at: number;
}

/** 0019: the cached client ID metadata document of a client whose id is its URL. */
export interface ClientIdMetadataDocumentsTable {
  client_id: string;
  /** The document as fetched, JSON. */
  document: string;
  fetched_at: number;
  fresh_until: number;
  usable_until: number;
}

/** A user's WebAuthn credential (0017); see webauthn/. */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  /** The owner's `users.subject`. */
  subject: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter of the last use (WebAuthn §6.1.1). */
  counter: number;
  /** The transports the browser reported, space-separated. */
  transports: string;
  /** 1 when the credential may be backed up (BE, WebAuthn §6.1); fixed at creation. */
  backup_eligible: number;
  /** 1 when it was backed up at its last use (BS). */
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A user's second factor (0016): one row per kind (`otp`, RFC 6238). */
export interface SecondFactorsTable {
  /** The user's `users.subject`. */
  subject: string;
  kind: string;
  /** The factor's secret sealed (AES-256-GCM, JSON; factors/sealing.ts): never plaintext. */
  secret: string;
  /** The last RFC 6238 time step a code was accepted for; a code of that step or before is refused. */
  last_step: number | null;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony's challenge (0017): single-use, short-lived, bound to a browser session. */
export interface WebAuthnChallengesTable {
  /** The challenge, base64url (it is sent to the browser; not a secret at rest). */
  challenge: string;
  session_id: string;
  /** `register` or `authenticate`. */
  purpose: string;
  /** The user a registration (or a second-factor assertion) is for; null for a passwordless sign-in. */
  subject: string | null;
  expires_at: number;
}

/** A user's recovery codes (0016), each by SHA-256 digest; `used_at` once used. */
export interface RecoveryCodesTable {
  subject: string;
  digest: string;
  created_at: number;
  used_at: number | null;
}

/** RFC 8628 device authorizations (0009): a device code and its user code, until redeemed or expired. */
export interface DeviceAuthorizationsTable {
  /** SHA-256 of the device code, hex. */
  id: string;
  /** SHA-256 of the user code in its canonical form (`XXXX-XXXX`), hex; unique. */
  user_code_digest: string;
  client_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  /** Seconds the device must wait between polls; raised by 5 on every slow_down (RFC 8628 §3.5). */
  poll_interval: number;
  last_polled_at: number | null;
  /** pending, approved, denied or redeemed. */
  status: string;
  /** The user who approved or denied, by `users.subject`; null while pending. */
  subject: string | null;
  /** When that user signed in (OIDC Core §2 auth_time). */
  auth_time: number | null;
  /** How (RFC 8176 `amr` values, space-separated, 0013); null with auth_time. */
  amr: string | null;
}

/** What the server runs with, for the commands run beside it (0012: `issuer`, oauth/discovery/served-issuer.ts). */
export interface ServerSettingsTable {
  name: string;
  value: string;
  updated_at: number;
}

/** An initial access token for client registration (RFC 7591 §3), made by `gatehouse registration-tokens issue` (0010). */
export interface RegistrationTokensTable {
  /** SHA-256 of the token, hex. */
  id: string;
  created_at: number;
  expires_at: number;
  /** How many clients it may register. */
  max_uses: number;
  uses: number;
}

/**
 * How the pages present a client (0030, ./client-presentation-repository.ts): its links and names by
 * language (JSON), and its logo as fetched (JSON: type, base64 data, version), null without one.
 */
export interface ClientPresentationsTable {
  client_id: string;
  metadata: string;
  logo: string | null;
}

/** A client registered through /register (0010): its RFC 7592 registration access token and its metadata. */
export interface ClientRegistrationsTable {
  client_id: string;
  /** SHA-256 of the registration access token, hex. */
  access_token_digest: string;
  /** The registered client metadata (RFC 7591 §2), JSON. */
  metadata: string;
}

/** Secrets every process shares (0007: `refresh_successor_key`, oauth/tokens/refresh-successors.ts). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface ClientsTable {
  id: string;
  name: string;
  /** SHA-256 of the secret, hex; null for a public client. */
  secret_digest: string | null;
  redirect_uris: string;
  grant_types: string;
  scope: string;
  rotation: number;
  rotation_limit: number;
  max_rotations: number | null;
  refresh_token_ttl: number;
  refresh_token_absolute_ttl: number;
  access_token_ttl: number;
  resource_server: number;
  created_at: number;
  /** Seconds; 0 when off (0007). */
  replay_window: number;
  /** `id_token_signed_response_alg`; null means RS256 (OIDC Core §15.1). */
  id_token_alg: string | null;
  /** JSON array of the exact URIs RP-initiated logout may return to. */
  post_logout_redirect_uris: string;
  /** 1 for an admin client (0011): only `gatehouse clients add --admin` makes one. */
  admin: number;
  /** Its token exchange policy (RFC 8693), JSON; null: the defaults (0020). */
  token_exchange: string | null;
  /** The client's public keys (RFC 7591 §2 `jwks`), a JSON JWK Set; null for none (0022). */
  jwks: string | null;
  /** Where the client's public keys are (RFC 7591 §2 `jwks_uri`); null for none (0022). */
  jwks_uri: string | null;
  /** The one client authentication method the client may use; null: the one its secret implies (0022). */
  auth_method: string | null;
  /** 1 when its authorization requests must be pushed (RFC 9126 §6 metadata, 0022). */
  require_par: number;
  /** 1: every token request must carry a DPoP proof (0021, RFC 9449 §5.2). */
  dpop_bound_access_tokens: number;
  /** `off`, `optional` or `required` (0016); null: the server's SECOND_FACTOR. */
  second_factor: string | null;
  /** The client's security profile, `fapi2`; null for none (0023). */
  profile: string | null;
}

/** A grant and its refresh-token family: the chain of rotations issued under it. */
export interface GrantsTable {
  id: string;
  client_id: string;
  /** The user's `users.subject` (0015 rewrote usernames to it); a client_credentials grant has no row. */
  subject: string;
  scope: string;
  created_at: number;
  /** The family's absolute expiry: created_at + the client's absolute TTL. */
  expires_at: number;
  rotation_count: number;
  /** The newest refresh token of the family (null when the family's last rotation issued none). */
  head_token_id: string | null;
  /** The token whose exchange issued the head; still exchangeable while it has uses left. */
  previous_token_id: string | null;
  revoked_at: number | null;
  revoked_reason: string | null;
  /** When the family last rotated (0007); null before its first rotation. */
  rotated_at: number | null;
  /** The DPoP key thumbprint the refresh tokens are bound to (0021, RFC 9449 §5); null: unbound. */
  dpop_jkt: string | null;
  /** A token exchange's grant (0024, RFC 8693): JSON `{ act?, audience }` of its access tokens; null otherwise. */
  exchange: string | null;
  /** A token exchange's grant (0024): the subject token's grant, whose revocation revokes this one. */
  parent_grant_id: string | null;
  /** The organization chosen at /authorize (0031), carried by every token of the grant; null for none. */
  organization_id: string | null;
}

export interface RefreshTokensTable {
  /** SHA-256 of the token, hex: the plaintext is never stored. */
  id: string;
  grant_id: string;
  use_count: number;
  issued_at: number;
  /** Idle expiry; the family's absolute expiry applies too. */
  expires_at: number;
}

export interface AuthorizationCodesTable {
  /** SHA-256 of the code, hex. */
  id: string;
  client_id: string;
  /** The user's `users.subject`, as the grant it becomes. */
  subject: string;
  scope: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  nonce: string | null;
  auth_time: number | null;
  /** RFC 8176 `amr` values of the sign-in, space-separated (0013); null with auth_time. */
  amr: string | null;
  /** The grant issued from this code, revoked if the code is replayed (RFC 6749 §4.1.2). */
  grant_id: string | null;
  /** RFC 9449 §10 `dpop_jkt` of the authorization request (0021); null when none. */
  dpop_jkt: string | null;
  /** The organization chosen at /authorize (0031), for the grant the code becomes; null for none. */
  organization_id: string | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
  /** When the key starts signing: published in /jwks before that, so verifiers' caches have it. */
  activates_at: number | null;
  retired_at: number | null;
}

/** A record of a REST collection declared in the OpenAPI document. */
export interface RecordsTable {
  collection: string;
  /** Time-ordered, so listing by id lists in creation order. */
  id: string;
  /**
   * The `sub` of the access token that created it (migration 0014); null for a record created by a
   * client with no user, or before records had owners.
   */
  owner: string | null;
  /** The record's JSON. */
  body: string;
  /** Starts at 1, incremented by every write; the ETag. */
  version: number;
  created_at: number;
  updated_at: number;
}

/** A person who signs in on the authorization pages; grants and tokens name them by `subject`. */
export interface UsersTable {
  username: string;
  /** `scrypt$N$r$p$salt$hash` (see users/passwords.ts). */
  password_hash: string;
  created_at: number;
  updated_at: number;
  /** The opaque, stable `sub` of every token and of userinfo (OIDC Core §2); never the username. */
  subject: string;
  /** The user's OIDC standard claims (§5.1), JSON. */
  claims: string;
  /** When an operator disabled the user (0011); null while the user may sign in. */
  disabled_at: number | null;
  /** 1 when the user must enrol a second factor at the next sign-in (0016, `users add --require-second-factor`). */
  second_factor_required: number;
  /** The `email` claim lowercased (0025, `normalizedEmail`); null without one. Indexed. */
  email_normalized: string | null;
  /** 1 while the password is an operator's temporary one, replaced at the next sign-in (0036). */
  password_temporary: number;
  /** The TERMS_VERSION the user accepted last, and when (0036); null: none yet. */
  terms_version: string | null;
  terms_accepted_at: number | null;
}

/** The original authentication of a grant made by an OpenID Connect sign-in (OIDC Core §12.2). */
export interface GrantAuthenticationsTable {
  grant_id: string;
  auth_time: number;
  /** RFC 8176 `amr` values of the sign-in, space-separated (0013). */
  amr: string | null;
  last_used_at: number | null;
}

/** A browser's sign-in session on the authorization pages, shared by every process on the store. */
export interface BrowserSessionsTable {
  /** SHA-256 of the cookie value, hex: the cookie itself is never stored. */
  id: string;
  /** The synchronizer token every form of the session carries. */
  csrf_token: string;
  /** Null until the browser signs in. The username (a foreign key: a rename ends the session), not the subject. */
  username: string | null;
  /** When the sign-in completed (every required method done); null while anonymous or pending. */
  authenticated_at: number | null;
  /** 1 while a first factor passed and more are required (0013). */
  pending: number;
  /** The methods done, JSON `[{ "method": amr value, "at": seconds }]` (0013). */
  methods: string;
  created_at: number;
  /** Idle expiry, moved on by use but never past created_at + the absolute lifetime. */
  expires_at: number;
}

/** A security event (audit/audit.ts). Holds no token, secret, password or digest. */
export interface AuditEventsTable {
  /** Time-ordered, so listing by id lists in the order recorded. */
  id: string;
  at: number;
  event: string;
  client_id: string | null;
  subject: string | null;
  grant_id: string | null;
  reason: string | null;
  address: string | null;
  /** Who made an administrative change (0011): the admin client's id, or `cli`. */
  actor: string | null;
}

/**
 * Rate-limit buckets shared by the processes on PostgreSQL (UNLOGGED: after a crash they start
 * empty, which only forgives). `tat` is the bucket's theoretical arrival time in epoch
 * milliseconds (GCRA); a bucket whose `tat` is past is the same as no row.
 */
export interface RateLimitsTable {
  bucket: string;
  tat: number;
  /** The period of the policy that last charged the bucket, ms: what "within one period" means for it. */
  period_ms: number;
}

/** 0018: upstream OpenID Providers an operator configured (federation/providers.ts). */
export interface UpstreamProvidersTable {
  id: string;
  issuer: string;
  client_id: string;
  /** `client_secret_basic` or `private_key_jwt`. */
  client_auth: string;
  /** JSON: the client secret or private JWK, sealed under KEY_ENCRYPTION_KEY when set. */
  credential: string;
  /** JSON: everything else (scopes, display, domains, policies, claim mapping). */
  settings: string;
  created_at: number;
  updated_at: number;
}

/** 0018: a local user linked to an upstream (iss, sub) pair; removing the user removes its links. */
export interface FederatedIdentitiesTable {
  issuer: string;
  subject: string;
  provider_id: string;
  username: string;
  linked_at: number;
}

/** 0018: an upstream sign-in in flight (state, nonce, PKCE verifier) or a link awaiting proof; single use. */
export interface FederationStatesTable {
  /** SHA-256 of the `state` sent upstream, or `link:` and the session id for a pending link. */
  id: string;
  /** The browser session that started it (its id, a digest): the callback must come from it. */
  session_id: string;
  provider_id: string;
  /** JSON: what the flow carries (nonce, verifier, request, or the identity to link). */
  data: string;
  expires_at: number;
}
