/**
 * The schemas of the admin API's OpenAPI document (document.ts): the request bodies, validated by
 * the contract's validator exactly as the REST API's (so a required field omitted or null is the
 * contract's missing-field 400, a bad value a 422), and the representations answered.
 */
import { GRANT_TYPES } from '../oauth/grants/index.js';
import { MAX_REPLAY_WINDOW } from '../oauth/clients/index.js';
import { AUDIT_EVENT_NAMES } from '../store/audit-repository.js';
import { PROBLEM_SCHEMAS } from '../json-api/document-parts.js';
import { SIGN_IN_METHODS } from '../organizations/index.js';

type Json = Record<string, unknown>;

const string = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });
const boolean = (description: string): Json => ({ type: 'boolean', description });
const seconds = (description: string, minimum = 1, maximum?: number): Json => ({
  type: 'integer',
  description: `${description}, in seconds`,
  minimum,
  ...(maximum === undefined ? {} : { maximum }),
});
const uris = (description: string): Json => ({ type: 'array', description, items: { type: 'string' } });
const time = (description: string, nullable = false): Json => ({
  type: 'string',
  format: 'date-time',
  description,
  ...(nullable ? { nullable: true } : {}),
});
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const page = (item: string): Json => ({
  type: 'object',
  required: ['items', 'next_cursor'],
  properties: {
    items: { type: 'array', items: ref(item) },
    next_cursor: string('Pass as `cursor` for the next page; null on the last page.', { nullable: true }),
  },
});

const strings = (description: string): Json => ({ type: 'array', description, items: { type: 'string' } });

/** An organization's sign-in policy (organizations/policy.ts); in a change, only the fields given change. */
const ORGANIZATION_POLICY: Json = {
  second_factor: string('`required`: a sign-in for the organization passes a second factor.', {
    enum: ['required', 'optional'],
  }),
  sign_in_methods: {
    type: 'array',
    items: { type: 'string', enum: [...SIGN_IN_METHODS] },
    minItems: 1,
    description: 'The sign-in methods allowed for the organization.',
  },
  upstream: string('The upstream provider id of home-realm discovery for its domains.', { nullable: true }),
  default_role: string('The role of a member made at sign-in by a verified e-mail domain.', { nullable: true }),
};

const ORGANIZATION_SCHEMAS: Readonly<Record<string, Json>> = {
  OrganizationCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['slug'],
    properties: {
      slug: string('Lower case letters, digits and hyphens; the `organization` parameter may name it.'),
      name: string('Its name, in tokens as `org_name` (default: the slug).', { minLength: 1, maxLength: 200 }),
      roles: strings('The organization roles to define.'),
    },
  },
  OrganizationUpdate: {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: string('A new name.', { minLength: 1, maxLength: 200 }),
      add_roles: strings('Roles to define.'),
      remove_roles: strings('Roles to remove; every member holding one loses it.'),
      policy: { type: 'object', additionalProperties: false, properties: ORGANIZATION_POLICY },
    },
  },
  Organization: {
    type: 'object',
    required: ['id', 'slug', 'name', 'roles', 'policy', 'created_at'],
    properties: {
      id: string('Its id, in tokens as `org_id`.'),
      slug: string('Its slug.'),
      name: string('Its name.'),
      roles: strings('Its organization roles.'),
      policy: {
        type: 'object',
        required: ['second_factor', 'sign_in_methods', 'upstream', 'default_role'],
        properties: ORGANIZATION_POLICY,
      },
      created_at: time('When it was added.'),
      domains: {
        type: 'array',
        items: ref('OrganizationDomain'),
        description: 'Its e-mail domains (one organization).',
      },
    },
  },
  OrganizationList: page('Organization'),
  OrganizationMemberPut: {
    type: 'object',
    additionalProperties: false,
    properties: { roles: strings("The member's organization roles, each one of the organization's (default none).") },
  },
  OrganizationMember: {
    type: 'object',
    required: ['subject', 'username', 'roles', 'source', 'joined_at'],
    properties: {
      subject: string('The user, by its subject.'),
      username: string('Its username; null for a user removed since.', { nullable: true }),
      roles: strings('Its organization roles.'),
      source: string(
        'How it joined: added by an operator, by its verified e-mail domain, or by accepting an invitation.',
        {
          enum: ['operator', 'domain', 'invitation'],
        },
      ),
      joined_at: time('When it joined.'),
    },
  },
  OrganizationMemberList: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', items: ref('OrganizationMember') } },
  },
  OrganizationDomainPut: {
    type: 'object',
    additionalProperties: false,
    properties: {
      verified: boolean('The operator has checked that the organization owns it: it counts for sign-in.'),
    },
  },
  OrganizationDomain: {
    type: 'object',
    required: ['domain', 'verified', 'verified_at'],
    properties: {
      domain: string('The domain, lower case.'),
      verified: boolean('Whether it counts for JIT membership and home-realm discovery.'),
      verified_at: time('When it was verified.', true),
    },
  },
};

/** What an upstream provider's entry sets besides its id and credential (federation/providers.ts). */
const UPSTREAM_SETTINGS: Json = {
  issuer: string('The issuer, discovered with OIDC Discovery / RFC 8414.'),
  client_id: string('The client id at the upstream.'),
  client_auth: string('How Gatehouse authenticates there.', { enum: ['client_secret_basic', 'private_key_jwt'] }),
  scopes: strings('The scopes asked for; must include openid (default openid profile email).'),
  display_name: string('The name on the sign-in page.'),
  icon: string(
    'An image beside the name: https: (http: on loopback) or data:image/; fetched when set, served by Gatehouse.',
  ),
  domains: strings('Home-realm discovery: e-mail domains sent to this provider.'),
  trust_email_verified_domains: strings('Domains whose upstream email_verified links an existing account.'),
  provision: boolean('Whether a first sign-in makes a local user (default true).'),
  claims: { type: 'object', description: 'Local claim: upstream claim.', additionalProperties: { type: 'string' } },
  end_session: boolean('RP-initiated logout also ends the upstream session.'),
  mfa_acr_values: strings('Upstream acr values that count as multi-factor (amr mfa); default none.'),
};

/** What a client's registration sets, in POST (with its id and type) and PUT. */
const CLIENT_SETTINGS: Json = {
  name: string('A name for people.', { minLength: 1, maxLength: 200 }),
  redirect_uris: uris('Where the authorization endpoint may send the browser back, compared exactly.'),
  grant_types: { type: 'array', items: { type: 'string', enum: GRANT_TYPES }, description: 'Grant types it may use.' },
  // RFC 6749 §3.3: scope-tokens of %x21 / %x23-5B / %x5D-7E, separated by single spaces.
  scope: string('The scopes it may request, space-separated.', { pattern: '^([!#-\\[\\]-~]+( [!#-\\[\\]-~]+)*)?$' }),
  rotation: boolean('Whether each refresh issues a new refresh token (default true).'),
  rotation_limit: { type: 'integer', minimum: 1, description: 'How many times one refresh token may be exchanged.' },
  max_rotations: { type: 'integer', minimum: 1, nullable: true, description: "A cap on a family's rotations." },
  refresh_token_ttl: seconds('Idle lifetime of a refresh token'),
  refresh_token_absolute_ttl: seconds("Lifetime of a grant's refresh tokens from its first issue"),
  access_token_ttl: seconds('Lifetime of an access token'),
  replay_window: seconds('Single-successor replay window (0: off)', 0, MAX_REPLAY_WINDOW),
  resource_server: boolean('Whether it may introspect the tokens of every client.'),
  id_token_signed_response_alg: { type: 'string', enum: ['RS256', 'ES256'] },
  post_logout_redirect_uris: uris('Where RP-initiated logout may send the browser back.'),
  token_exchange: {
    type: 'object',
    additionalProperties: false,
    description: 'Its token exchange policy (RFC 8693); the grant itself needs the token-exchange grant type.',
    properties: {
      audiences: uris("Audiences it may ask for, besides this server's own (the issuer and its REST API)."),
      subject_audiences: uris('Audiences of the subject tokens it may exchange, besides tokens issued to it.'),
      impersonation: boolean('Whether an exchange without an actor token issues a token with no `act`.'),
      refresh_tokens: boolean(
        "Whether an exchange may ask requested_token_type refresh_token (RFC 8693 §2.1): a refresh token of a new grant, revoked with the subject token's grant.",
      ),
    },
  },
  // RFC 7591 §2: the client's public keys, by value or by reference (not both).
  jwks: {
    type: 'object',
    nullable: true,
    description:
      'Its public keys, a JWK Set (RFC 7517 §5), for private_key_jwt (RFC 7523) and signed request objects (RFC 9101). A new confidential client with keys gets no secret.',
    required: ['keys'],
    properties: { keys: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'object' } } },
  },
  jwks_uri: string('Where it publishes its public keys (https), instead of jwks.', { nullable: true }),
  require_pushed_authorization_requests: boolean(
    'Whether its authorization requests must be pushed to /par (RFC 9126 §6); default false.',
  ),
  dpop_bound_access_tokens: boolean(
    'RFC 9449 §5.2: whether every token request must carry a DPoP proof, binding its tokens to that key; default false.',
  ),
  second_factor: {
    type: 'string',
    enum: ['off', 'optional', 'required'],
    description: "Whether signing in to it asks a second factor; absent: the server's SECOND_FACTOR.",
  },
  profile: {
    type: 'string',
    enum: ['fapi2', 'none'],
    description:
      'A security profile: fapi2, the FAPI 2.0 Security Profile (pushed requests, private_key_jwt only, DPoP-bound tokens, PS256/ES256/EdDSA; a confidential client with keys); default none.',
  },
};

const CLAIMS: Json = {
  name: string('OIDC Core §5.1 `name`; an empty string removes it.'),
  given_name: string('`given_name`'),
  family_name: string('`family_name`'),
  preferred_username: string('`preferred_username`'),
  email: string('`email`'),
  email_verified: boolean('`email_verified`'),
  locale: string(
    'OIDC Core §5.1 `locale`, a BCP 47 language tag (stored canonical: `pt-br` -> `pt-BR`); the pages speak it when no ui_locales and no chosen language say otherwise.',
  ),
};

export const ADMIN_SCHEMAS: Readonly<Record<string, Json>> = {
  ...PROBLEM_SCHEMAS,
  ClientCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['client_id', 'name'],
    properties: {
      client_id: string('The client id.', { pattern: '^[A-Za-z0-9._~-]{1,128}$' }),
      public: boolean('A public client (no secret, PKCE); default false.'),
      ...CLIENT_SETTINGS,
    },
  },
  ClientUpdate: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    description: 'A full replacement of the settings: a setting left out takes its default.',
    properties: CLIENT_SETTINGS,
  },
  Client: {
    type: 'object',
    required: ['client_id', 'name', 'type', 'redirect_uris', 'grant_types', 'scope', 'created_at'],
    properties: {
      client_id: string('The client id.'),
      type: { type: 'string', enum: ['public', 'confidential'] },
      ...CLIENT_SETTINGS,
      max_rotations: { type: 'integer', nullable: true },
      token_endpoint_auth_method: {
        type: 'string',
        enum: ['none', 'client_secret_basic', 'private_key_jwt'],
        description: 'How it authenticates (client_secret_basic stands for a secret, sent by Basic or in the body).',
      },
      created_at: time('When it was registered.'),
      admin: boolean('Present (true) on an admin client, made with `gatehouse clients add --admin`.'),
    },
  },
  ClientWithSecret: {
    allOf: [
      ref('Client'),
      {
        type: 'object',
        properties: { client_secret: string('The secret, shown only in this answer; a public client has none.') },
      },
    ],
  },
  ClientPage: page('Client'),
  UpstreamPut: {
    type: 'object',
    description:
      'An upstream OpenID Provider (docs/federation.md), as an entry of an upstreams file: a full replacement. ' +
      'Checked as `gatehouse upstreams apply` checks it.',
    required: ['issuer', 'client_id'],
    properties: {
      id: string('When given, the id of the path.'),
      ...UPSTREAM_SETTINGS,
      client_secret: string('For client_secret_basic; sealed at rest under KEY_ENCRYPTION_KEY, never answered.'),
      private_jwk: {
        type: 'object',
        description: 'For private_key_jwt: the private JWK (with its alg); sealed at rest, never answered.',
      },
    },
  },
  Upstream: {
    type: 'object',
    required: ['id', 'issuer', 'client_id', 'client_auth', 'credential_sealed'],
    description: 'An upstream OpenID Provider, without its client secret or private key.',
    properties: {
      id: string('The provider id.'),
      ...UPSTREAM_SETTINGS,
      credential_sealed: boolean('Whether its credential is sealed under KEY_ENCRYPTION_KEY.'),
    },
  },
  UpstreamTestSignIn: {
    type: 'object',
    description:
      'A test sign-in: pending until the upstream sends the browser back, then succeeded (what came back, what a sign-in would do) or failed.',
    required: ['id', 'upstream', 'status'],
    properties: {
      id: string('The test sign-in id (empty when it failed before starting).'),
      upstream: string('The upstream provider id.'),
      status: string('Where it is.', { enum: ['pending', 'succeeded', 'failed'] }),
      expires_at: time('Pending: until when the callback and the read are accepted.'),
      finished_at: time('When the callback came (or the start failed).'),
      issuer: string('Succeeded: the ID token iss.'),
      subject: string('Succeeded: the ID token sub.'),
      acr: string('Succeeded: the ID token acr.', { nullable: true }),
      amr: strings('Succeeded: the ID token amr.'),
      claims: { type: 'object', description: "Succeeded: the ID token's claims merged with userinfo's." },
      mapped_claims: { type: 'object', description: "Succeeded: the local claims the provider's mapping gives." },
      local_account: {
        type: 'object',
        description:
          "Succeeded: what a sign-in would do by the provider's rules: sign_in (linked), link (email_verified trusted), " +
          'link_after_proof (the account owner proves it), provision (a new user), refuse.',
        required: ['action'],
        properties: {
          action: string('The action.', { enum: ['sign_in', 'link', 'link_after_proof', 'provision', 'refuse'] }),
          username: string('The local account signed in, linked or created.'),
          reason: string('Why a sign-in would be refused.'),
        },
      },
      problem: {
        type: 'object',
        description: 'Failed: the catalog entry a sign-in would have shown.',
        required: ['code', 'status', 'title'],
        properties: { code: string('Its code.'), status: { type: 'integer' }, title: string('Its title.') },
      },
      detail: string('Failed: what failed.'),
    },
  },
  UpstreamTestSignInStarted: {
    allOf: [
      ref('UpstreamTestSignIn'),
      {
        type: 'object',
        properties: {
          authorization_url: string("Pending: the upstream authorization URL to open in the operator's browser."),
        },
      },
    ],
  },
  UpstreamList: page('Upstream'),
  UserCreate: {
    type: 'object',
    additionalProperties: false,
    required: ['username'],
    properties: {
      username: string('1 to 64 characters of a-z, 0-9 and . _ @ -, stored lowercase.'),
      password: string('At least 8 characters; when left out, one is made and shown only in the answer.'),
      second_factor_required: boolean('The user must set up a second factor at its first sign-in.'),
      ...CLAIMS,
    },
  },
  UserClaims: {
    type: 'object',
    additionalProperties: false,
    description: "A full replacement of the user's claims: a claim left out is removed.",
    properties: CLAIMS,
  },
  UserPassword: {
    type: 'object',
    additionalProperties: false,
    required: ['password'],
    properties: {
      password: string('The new password; the user is signed out of every browser.'),
      temporary: boolean('The user chooses a password of its own at its next sign-in (a required action).'),
    },
  },
  UserSecondFactorRequirement: {
    type: 'object',
    additionalProperties: false,
    required: ['required'],
    properties: {
      required: boolean(
        '`true`: a user without a second factor sets one up at its next sign-in, whatever the client asks; `false`: no longer.',
      ),
    },
  },
  User: {
    type: 'object',
    required: ['username', 'subject', 'created_at', 'updated_at'],
    properties: {
      username: string('The name the user signs in with; it may change (grants name the user by `subject`).'),
      subject: string('The `sub` of its tokens (access, ID, introspection, userinfo): opaque, stable, never reused.'),
      ...CLAIMS,
      created_at: time('When it was added.'),
      updated_at: time('When it last changed.'),
      disabled_at: time('When it was disabled; absent while it may sign in.'),
      second_factor_required: boolean('Present (true) while the user must set up a second factor at its next sign-in.'),
      password_temporary: boolean(
        'Present (true) while the password is a temporary one the user replaces at its next sign-in.',
      ),
      terms_version: string('The version of the terms (TERMS_VERSION) the user accepted last; absent: none.'),
      terms_accepted_at: time('When the user accepted them.'),
    },
  },
  FactorList: {
    type: 'object',
    required: ['factors'],
    properties: {
      factors: {
        type: 'array',
        description: "The user's second factors (never a secret).",
        items: {
          type: 'object',
          required: ['kind'],
          properties: {
            kind: string('`otp` (an authenticator app, RFC 6238), `recovery_codes` or `passkey` (WebAuthn).'),
            name: string('Passkeys: the name the user gave it (never its public key).'),
            created_at: time('When it was set up.', true),
            last_used_at: time('When it last signed the user in.', true),
            remaining: { type: 'integer', description: 'Recovery codes: how many are unused.' },
          },
        },
      },
    },
  },
  FactorReset: {
    type: 'object',
    required: ['removed'],
    properties: {
      removed: {
        type: 'integer',
        description:
          'How many factors were removed: the authenticator app and the passkeys (recovery codes with them).',
      },
      second_factor_required: boolean('Whether the user must set up a factor again at its next sign-in.'),
    },
  },
  Overview: {
    type: 'object',
    required: ['checked_at', 'store', 'mail', 'signing_keys', 'counts'],
    properties: {
      checked_at: time('When the server read it.'),
      store: {
        type: 'object',
        required: ['reachable', 'round_trip_ms'],
        properties: {
          reachable: boolean('Always true in an answer: an unreachable store makes the request fail (503).'),
          round_trip_ms: { type: 'number', description: 'How long the counting query took, milliseconds.' },
        },
      },
      mail: {
        type: 'object',
        required: ['queued', 'sending', 'sent', 'failed', 'oldest_waiting_at'],
        description: 'The mail outbox by state (docs/operating.md, Mail).',
        properties: {
          queued: { type: 'integer' },
          sending: { type: 'integer' },
          sent: { type: 'integer' },
          failed: { type: 'integer', description: 'Given up after its attempts: see gatehouse mail failed.' },
          oldest_waiting_at: time('When the oldest message still waiting was queued.', true),
        },
      },
      signing_keys: {
        type: 'array',
        description: 'The keys that sign now, one per algorithm.',
        items: {
          type: 'object',
          required: ['kid', 'alg', 'published_at', 'age_seconds'],
          properties: {
            kid: string('Its key id.'),
            alg: string('Its algorithm.'),
            published_at: time('When it was published.'),
            age_seconds: { type: 'integer', description: 'Seconds since it was published.' },
          },
        },
      },
      counts: {
        type: 'object',
        required: ['users', 'clients', 'live_grants', 'approximate'],
        properties: {
          users: { type: 'integer' },
          clients: { type: 'integer' },
          live_grants: { type: 'integer', description: 'Grants neither revoked nor past their absolute expiry.' },
          approximate: boolean(
            "True when users or live_grants is an estimate: on PostgreSQL, a table past 10,000 rows is counted from the database's statistics (as fresh as its last ANALYZE, usually within a few percent), not row by row. False when every count is exact (always on SQLite).",
          ),
        },
      },
    },
  },
  SessionList: {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        description: "The user's signed-in browser sessions, oldest first (never a cookie or its digest).",
        items: {
          type: 'object',
          required: ['session_id', 'created_at', 'signed_in_at', 'expires_at', 'methods'],
          properties: {
            session_id: string('A handle of the session, for ending it.'),
            created_at: time('When the browser first came.'),
            signed_in_at: time('When its sign-in completed (the ID tokens’ auth_time).', true),
            expires_at: time('When it ends unless used (idle), never past its absolute lifetime.'),
            methods: strings('How the user signed in: RFC 8176 amr values (pwd, otp, hwk, user, fed, …).'),
          },
        },
      },
    },
  },
  SignOut: {
    type: 'object',
    required: ['sessions_ended', 'grants_revoked'],
    properties: {
      sessions_ended: { type: 'integer', description: 'How many browser sessions ended.' },
      grants_revoked: { type: 'integer', description: 'How many live grants were revoked, with their tokens.' },
    },
  },
  UserWithPassword: {
    allOf: [
      ref('User'),
      { type: 'object', properties: { password: string('The password made for the user, shown only here.') } },
    ],
  },
  UserPage: page('User'),
  Grant: {
    type: 'object',
    required: ['grant_id', 'client_id', 'subject', 'scope', 'created_at', 'expires_at', 'revoked_at'],
    properties: {
      grant_id: string('The grant id.'),
      client_id: string('The client it was given to.'),
      subject: string('The `subject` of the user who gave it: the `sub` of its tokens, never the username.'),
      scope: string('Its scopes, space-separated.'),
      created_at: time('When it was given.'),
      expires_at: time('When its refresh tokens stop working, whatever happens.'),
      rotation_count: { type: 'integer' },
      revoked_at: time('When it was revoked; null while live.', true),
      revoked_reason: string('Why it was revoked.', { nullable: true }),
    },
  },
  GrantPage: page('Grant'),
  GrantRevocation: {
    type: 'object',
    required: ['grant_id', 'revoked', 'already_revoked'],
    properties: {
      grant_id: string('The grant id.'),
      revoked: { type: 'boolean', enum: [true] },
      already_revoked: boolean('Whether it had been revoked before this request.'),
    },
  },
  StoredRecord: {
    type: 'object',
    required: ['id', 'owner', 'version', 'created_at', 'updated_at', 'body'],
    properties: {
      id: string('The record id.'),
      owner: string(
        'The sub of the access token that created it; null when no user did (a client, or before records had owners).',
        { nullable: true },
      ),
      version: { type: 'integer', description: "Its version, the REST API's ETag." },
      created_at: time('When it was created.'),
      updated_at: time('When it was last written.'),
      body: { type: 'object', description: 'Its fields, as the REST API stores them (without id).' },
    },
  },
  StoredRecordPage: page('StoredRecord'),
  SigningKey: {
    type: 'object',
    required: ['kid', 'alg', 'published_at', 'signs_from', 'sealed', 'retired_at', 'status'],
    properties: {
      kid: string('The key id (its RFC 7638 thumbprint).'),
      alg: { type: 'string', enum: ['ES256', 'RS256'] },
      published_at: time('When it appeared in /jwks.'),
      signs_from: time('When it starts signing.'),
      sealed: boolean('Whether its private key is sealed under KEY_ENCRYPTION_KEY.'),
      retired_at: time('When it was retired; null while live.', true),
      status: { type: 'string', enum: ['signing', 'published', 'verifying', 'retired'] },
    },
  },
  SigningKeyPage: page('SigningKey'),
  KeyRotation: {
    type: 'object',
    required: ['keys'],
    properties: { keys: { type: 'array', items: ref('SigningKey'), description: 'The new key of each algorithm.' } },
  },
  AuditEvent: {
    type: 'object',
    required: ['id', 'at', 'event', 'client_id', 'subject', 'grant_id', 'reason', 'address', 'actor'],
    properties: {
      id: string('Time-ordered event id.'),
      at: time('When it happened.'),
      event: { type: 'string', enum: AUDIT_EVENT_NAMES },
      client_id: string('The client concerned.', { nullable: true }),
      subject: string('The user concerned, by `subject` (`login_failed`: the username typed).', { nullable: true }),
      grant_id: string('The grant concerned.', { nullable: true }),
      reason: string('Why (for signing key events: the key ids).', { nullable: true }),
      address: string("The caller's address, for refusals.", { nullable: true }),
      actor: string('Who made an administrative change: an admin client id, or `cli`.', { nullable: true }),
    },
  },
  AuditEventPage: page('AuditEvent'),
  ...ORGANIZATION_SCHEMAS,
};
