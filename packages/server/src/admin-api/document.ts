/**
 * The admin API's OpenAPI 3.0 document, served at /admin/v1/openapi.json: the whole truth of what
 * /admin/v1 answers, every status of every operation with its problem schema, and the request
 * bodies the server validates with (definition.ts compiles them once with the contract's validator).
 */
import { PROBLEMS } from '@gatehouse/contract';
import { problemResponse, SECURITY_SCHEME, SUCCESS_HEADERS } from '../json-api/document-parts.js';
import { ADMIN_READ_SCOPE, ADMIN_SCOPE } from '../oauth/clients/index.js';
import { ADMIN_SCHEMAS } from './document-schemas.js';
import { accessPaths } from './access-document.js';
import { ACCESS_SCHEMAS } from './access-schemas.js';
import { INVITATION_SCHEMAS, invitationPaths } from './invitation-document.js';
import { REQUIRED_ROLES, rolesAllowed } from './admin-roles.js';
import { MAX_SEARCH } from './query.js';
import { STEP_UP, STEP_UP_MAX_AGE, stepUpOf } from './step-up.js';

type Json = Record<string, unknown>;

/** The operations whose request body is validated, by operationId, with the schema each takes. */
export const ADMIN_BODIES = {
  createClient: 'ClientCreate',
  updateClient: 'ClientUpdate',
  createUser: 'UserCreate',
  replaceUserClaims: 'UserClaims',
  setUserPassword: 'UserPassword',
  setUserSecondFactorRequirement: 'UserSecondFactorRequirement',
  putUpstream: 'UpstreamPut',
  createGroup: 'GroupCreate',
  createRole: 'RoleCreate',
  roleHolder: 'RoleHolder',
  createOrganization: 'OrganizationCreate',
  updateOrganization: 'OrganizationUpdate',
  putOrganizationMember: 'OrganizationMemberPut',
  putOrganizationDomain: 'OrganizationDomainPut',
  createInvitation: 'InvitationCreate',
} as const;

export type AdminBodyOperation = keyof typeof ADMIN_BODIES;

export interface Operation {
  readonly id: string;
  readonly summary: string;
  /** Writes need gatehouse:admin; reads take gatehouse:admin:read as well. */
  readonly writes: boolean;
  readonly success: readonly [status: string, schema: string | null];
  readonly body?: string;
  /** Besides 400, 401, 403, 500 and 503, which every operation can answer. */
  readonly problems?: readonly number[];
  readonly query?: readonly Json[];
  readonly location?: boolean;
}

const ALWAYS = [400, 401, 403, 500, 503];
/** A request with a body may also be too large (413), of another media type (415), or unacceptable (422). */
const WITH_BODY = [413, 415, 422];

const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
const PAGING = [
  query('cursor', 'The next_cursor of the previous page.'),
  query('limit', 'Items per page, 1 to 100 (default 20).', { type: 'string', pattern: '^[0-9]{1,3}$' }),
];

/** `q` of a list: `what` it keeps, searched in the store. */
const search = (what: string): Json =>
  query('q', `${what}, 1 to ${MAX_SEARCH} characters.`, { type: 'string', minLength: 1, maxLength: MAX_SEARCH });

function operation(op: Operation): Json {
  const [status, schema] = op.success;
  const success: Json = { description: op.summary };
  if (schema !== null)
    success['content'] = { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } };
  if (op.location === true) success['headers'] = { Location: SUCCESS_HEADERS['Location'] };
  const responses: Json = { [status]: success };
  const statuses = [...ALWAYS, ...(op.problems ?? []), ...(op.body === undefined ? [] : WITH_BODY)];
  for (const problem of [...new Set(statuses)].sort()) responses[String(problem)] = adminProblem(problem);
  const scopes = op.writes ? [[ADMIN_SCOPE]] : [[ADMIN_READ_SCOPE], [ADMIN_SCOPE]];
  return {
    operationId: op.id,
    summary: op.summary,
    security: scopes.map((s) => ({ [SECURITY_SCHEME]: s })),
    ...(op.query === undefined ? {} : { parameters: op.query }),
    ...(op.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.body}` } } },
          },
        }),
    responses,
  };
}

/** The catalog's problem response, naming the admin API's own 422 and 409 causes too. */
function adminProblem(status: number): Json {
  const response = problemResponse(status);
  if (status === 403)
    response['description'] = [PROBLEMS.insufficient_scope, PROBLEMS.insufficient_role]
      .map((p) => `${p.title} (/problems/${p.slug})`)
      .join('; ');
  if (status === 422)
    response['description'] = [
      PROBLEMS.invalid_field_value,
      PROBLEMS.invalid_operator_input,
      PROBLEMS.organization_domain_public,
    ]
      .map((p) => `${p.title} (/problems/${p.slug})`)
      .join('; ');
  return response;
}

const pathParameter = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

const CLIENT_ID = pathParameter('client_id', 'The client id.');
const USERNAME = pathParameter('username', 'The username.');
const ORGANIZATION = pathParameter('organization', 'The organization id or slug.');

const PATHS: Readonly<Record<string, Json>> = {
  '/clients': {
    get: operation({
      id: 'listClients',
      summary: 'A page of the clients, by client id.',
      writes: false,
      success: ['200', 'ClientPage'],
      query: PAGING,
    }),
    post: operation({
      id: 'createClient',
      summary: 'Registers a client; a confidential one gets its secret, shown only in this answer.',
      writes: true,
      success: ['201', 'ClientWithSecret'],
      body: 'ClientCreate',
      problems: [409],
      location: true,
    }),
  },
  '/clients/{client_id}': {
    parameters: [CLIENT_ID],
    get: operation({
      id: 'getClient',
      summary: 'The client.',
      writes: false,
      success: ['200', 'Client'],
      problems: [404],
    }),
    put: operation({
      id: 'updateClient',
      summary: "Replaces the client's settings; its id, type and secret stay.",
      writes: true,
      success: ['200', 'Client'],
      body: 'ClientUpdate',
      problems: [404],
    }),
    delete: operation({
      id: 'deleteClient',
      summary: 'Removes the client, its grants and tokens; its access tokens stop working.',
      writes: true,
      success: ['204', null],
      problems: [404, 413, 415],
    }),
  },
  '/clients/{client_id}/secret': {
    parameters: [CLIENT_ID],
    post: operation({
      id: 'rotateClientSecret',
      summary: 'Gives the client a new secret, shown only in this answer; the old one stops working.',
      writes: true,
      success: ['200', 'ClientWithSecret'],
      problems: [404, 413, 415, 422],
    }),
  },
  '/users': {
    get: operation({
      id: 'listUsers',
      summary: 'A page of the users, by username; searched and filtered in the store.',
      writes: false,
      success: ['200', 'UserPage'],
      query: [
        ...PAGING,
        search('Only users whose username contains this text (any case)'),
        query('state', 'Only the enabled or the disabled users.', { type: 'string', enum: ['enabled', 'disabled'] }),
      ],
    }),
    post: operation({
      id: 'createUser',
      summary: 'Adds a user; without a password one is made and shown only in this answer.',
      writes: true,
      success: ['201', 'UserWithPassword'],
      body: 'UserCreate',
      problems: [409],
      location: true,
    }),
  },
  '/users/{username}': {
    parameters: [USERNAME],
    get: operation({ id: 'getUser', summary: 'The user.', writes: false, success: ['200', 'User'], problems: [404] }),
    delete: operation({
      id: 'deleteUser',
      summary: 'Removes the user and revokes every grant it gave.',
      writes: true,
      success: ['204', null],
      problems: [404, 413, 415],
    }),
  },
  '/users/{username}/claims': {
    parameters: [USERNAME],
    put: operation({
      id: 'replaceUserClaims',
      summary: "Replaces the user's OpenID Connect claims.",
      writes: true,
      success: ['200', 'User'],
      body: 'UserClaims',
      problems: [404],
    }),
  },
  '/users/{username}/password': {
    parameters: [USERNAME],
    put: operation({
      id: 'setUserPassword',
      summary: "Sets the user's password and signs it out of every browser.",
      writes: true,
      success: ['204', null],
      body: 'UserPassword',
      problems: [404],
    }),
  },
  '/users/{username}/second-factor-requirement': {
    parameters: [USERNAME],
    put: operation({
      id: 'setUserSecondFactorRequirement',
      summary:
        'Requires the user to set up a second factor at its next sign-in when it has none (`required: true`), or no longer, as `gatehouse users require-second-factor NAME [--off]`; audits second_factor_requirement_set.',
      writes: true,
      success: ['200', 'User'],
      body: 'UserSecondFactorRequirement',
      problems: [404],
    }),
  },
  '/users/{username}/disable': {
    parameters: [USERNAME],
    post: operation({
      id: 'disableUser',
      summary: 'The user can no longer sign in; its sessions end and its grants are revoked.',
      writes: true,
      success: ['200', 'User'],
      problems: [404, 413, 415],
    }),
  },
  '/users/{username}/enable': {
    parameters: [USERNAME],
    post: operation({
      id: 'enableUser',
      summary: 'A disabled user may sign in again; its revoked grants stay revoked.',
      writes: true,
      success: ['200', 'User'],
      problems: [404, 413, 415],
    }),
  },
  '/users/{username}/factors': {
    parameters: [USERNAME],
    get: operation({
      id: 'listUserFactors',
      summary: "The user's second factors, passkeys included: kinds, names and dates, never a secret or a public key.",
      writes: false,
      success: ['200', 'FactorList'],
      problems: [404],
    }),
  },
  '/users/{username}/factors/reset': {
    parameters: [USERNAME],
    post: operation({
      id: 'resetUserFactors',
      summary:
        "Removes the user's second factors, recovery codes and passkeys (one transaction, one audit record), signs it out of every browser, and audits second_factor_reset; with require_enrolment=true it sets one up again at its next sign-in.",
      writes: true,
      success: ['200', 'FactorReset'],
      query: [query('require_enrolment', '`true`: the user must set up a second factor at its next sign-in.')],
      problems: [404, 413, 415],
    }),
  },
  '/users/{username}/sessions': {
    parameters: [USERNAME],
    get: operation({
      id: 'listUserSessions',
      summary: "The user's signed-in browser sessions, oldest first.",
      writes: false,
      success: ['200', 'SessionList'],
      problems: [404],
    }),
  },
  '/users/{username}/sessions/{session_id}': {
    parameters: [USERNAME, pathParameter('session_id', 'The session_id of one of its sessions.')],
    delete: operation({
      id: 'endUserSession',
      summary:
        'Ends one browser session of the user (its next request is anonymous) and audits user_session_ended; the grants it gave stay.',
      writes: true,
      success: ['204', null],
      problems: [404],
    }),
  },
  '/users/{username}/sign-out': {
    parameters: [USERNAME],
    post: operation({
      id: 'signOutUserEverywhere',
      summary:
        'Signs the user out everywhere: every browser session ends and every live grant is revoked with its tokens; audits user_signed_out_everywhere. The user may sign in again.',
      writes: true,
      success: ['200', 'SignOut'],
      problems: [404],
    }),
  },
  '/upstreams': {
    get: operation({
      id: 'listUpstreams',
      summary: 'A page of the upstream OpenID Providers, by id, never their client secret or private key.',
      writes: false,
      success: ['200', 'UpstreamList'],
      query: [...PAGING, search('Only upstreams whose id, display name or issuer contains this text (any case)')],
    }),
  },
  '/upstreams/{upstream_id}': {
    parameters: [pathParameter('upstream_id', 'The upstream provider id.')],
    get: operation({
      id: 'getUpstream',
      summary: 'The upstream provider, without its credential.',
      writes: false,
      success: ['200', 'Upstream'],
      problems: [404],
    }),
    put: operation({
      id: 'putUpstream',
      summary:
        'Adds or replaces the upstream provider, checked as `gatehouse upstreams apply` checks it; audits upstream_provider_changed.',
      writes: true,
      success: ['200', 'Upstream'],
      body: 'UpstreamPut',
    }),
    delete: operation({
      id: 'deleteUpstream',
      summary: 'Removes the upstream provider (its links to local users stay); audits upstream_provider_removed.',
      writes: true,
      success: ['204', null],
      problems: [404, 413, 415],
    }),
  },
  '/upstreams/{upstream_id}/test-sign-ins': {
    parameters: [pathParameter('upstream_id', 'The upstream provider id.')],
    post: operation({
      id: 'startUpstreamTestSignIn',
      summary:
        'Starts a test sign-in at the upstream (docs/federation.md, "Testing an upstream"): open authorization_url in the operator\'s browser; ' +
        'the callback checks the answer as for a sign-in but signs nobody in, links nothing and creates nobody. ' +
        'An upstream that cannot be reached gives a failed result at once (no authorization_url). Audits upstream_test_sign_in.',
      writes: true,
      success: ['201', 'UpstreamTestSignInStarted'],
      problems: [404],
    }),
  },
  '/upstreams/{upstream_id}/test-sign-ins/{test_id}': {
    parameters: [
      pathParameter('upstream_id', 'The upstream provider id.'),
      pathParameter('test_id', 'The id answered when the test sign-in started.'),
    ],
    get: operation({
      id: 'getUpstreamTestSignIn',
      summary:
        'The result of a test sign-in, for the operator who started it only: pending until the callback, then answered once ' +
        '(read again, another operator, unknown or past its ten minutes: 404).',
      writes: false,
      success: ['200', 'UpstreamTestSignIn'],
      problems: [404],
    }),
  },
  '/organizations': {
    get: operation({
      id: 'listOrganizations',
      summary: 'A page of the organizations, by slug; searched in the store.',
      writes: false,
      success: ['200', 'OrganizationList'],
      query: [...PAGING, search('Only organizations whose slug or name contains this text (any case)')],
    }),
    post: operation({
      id: 'createOrganization',
      summary: 'Adds an organization (docs/organizations.md); audits organization_changed.',
      writes: true,
      success: ['201', 'Organization'],
      body: 'OrganizationCreate',
      problems: [409],
      location: true,
    }),
  },
  '/organizations/{organization}': {
    parameters: [ORGANIZATION],
    get: operation({
      id: 'getOrganization',
      summary: 'The organization with its e-mail domains.',
      writes: false,
      success: ['200', 'Organization'],
      problems: [404],
    }),
    patch: operation({
      id: 'updateOrganization',
      summary:
        'Renames it, defines or removes roles (a removed role is taken from every member), changes its policy (only the fields given); audits organization_changed.',
      writes: true,
      success: ['200', 'Organization'],
      body: 'OrganizationUpdate',
      problems: [404],
    }),
    delete: operation({
      id: 'deleteOrganization',
      summary:
        "Removes the organization, its members and domains; its members' grants made for it are revoked. Audits organization_removed.",
      writes: true,
      success: ['204', null],
      problems: [404, 413, 415],
    }),
  },
  '/organizations/{organization}/members': {
    parameters: [ORGANIZATION],
    get: operation({
      id: 'listOrganizationMembers',
      summary: 'The members of the organization with their roles.',
      writes: false,
      success: ['200', 'OrganizationMemberList'],
      problems: [404],
    }),
  },
  '/organizations/{organization}/members/{username}': {
    parameters: [ORGANIZATION, USERNAME],
    put: operation({
      id: 'putOrganizationMember',
      summary: "Makes the user a member with these roles, or sets a member's roles; audits organization_member_added.",
      writes: true,
      success: ['200', 'OrganizationMember'],
      body: 'OrganizationMemberPut',
      problems: [404],
    }),
    delete: operation({
      id: 'deleteOrganizationMember',
      summary:
        "Removes the member and revokes the member's grants made for the organization; audits organization_member_removed.",
      writes: true,
      success: ['204', null],
      problems: [404, 413, 415],
    }),
  },
  '/organizations/{organization}/domains/{domain}': {
    parameters: [ORGANIZATION, pathParameter('domain', 'An e-mail domain.')],
    put: operation({
      id: 'putOrganizationDomain',
      summary:
        "Adds the e-mail domain to the organization, verified when the body says so; a public mail domain (gmail.com, outlook.com, …) is refused with 422 /problems/organization-domain-public, another organization's with 409. Audits organization_domain_changed.",
      writes: true,
      success: ['200', 'OrganizationDomain'],
      body: 'OrganizationDomainPut',
      problems: [404, 409],
    }),
    delete: operation({
      id: 'deleteOrganizationDomain',
      summary: 'Removes the e-mail domain (its members stay members); audits organization_domain_changed.',
      writes: true,
      success: ['204', null],
      problems: [404, 413, 415],
    }),
  },
  '/grants': {
    get: operation({
      id: 'listGrants',
      summary: 'A page of the grants of one user or one client (exactly one of the two), by grant id.',
      writes: false,
      success: ['200', 'GrantPage'],
      query: [
        query('user', 'The username of the user whose grants to list (by its subject; none for an unknown name).'),
        query('client_id', 'The client whose grants to list.'),
        ...PAGING,
      ],
    }),
  },
  '/grants/{grant_id}/revoke': {
    parameters: [pathParameter('grant_id', 'The grant id.')],
    post: operation({
      id: 'revokeGrant',
      summary: 'Revokes the grant: its refresh and access tokens stop working at once.',
      writes: true,
      success: ['200', 'GrantRevocation'],
      problems: [404, 413, 415],
    }),
  },
  '/keys': {
    get: operation({
      id: 'listSigningKeys',
      summary: 'A page of the signing keys and their status, newest first.',
      writes: false,
      success: ['200', 'SigningKeyPage'],
      query: PAGING,
    }),
  },
  '/keys/rotate': {
    post: operation({
      id: 'rotateSigningKeys',
      summary: 'Adds a key per algorithm: published now, signing in 10 minutes (with now=true at once).',
      writes: true,
      success: ['201', 'KeyRotation'],
      problems: [413, 415],
      query: [query('now', 'true: the new keys sign at once.', { type: 'string', enum: ['true', 'false'] })],
    }),
  },
  '/keys/{kid}/retire': {
    parameters: [pathParameter('kid', 'The key id.')],
    post: operation({
      id: 'retireSigningKey',
      summary: 'Stops publishing and accepting the key; refused while no other key of its algorithm signs.',
      writes: true,
      success: ['200', 'SigningKey'],
      problems: [404, 413, 415, 422],
    }),
  },
  '/collections/{collection}/records': {
    parameters: [pathParameter('collection', 'A collection of the REST API (/v2/{collection}).')],
    get: operation({
      id: 'listRecords',
      summary: "A page of the collection's records, every owner's, with their owner, by record id.",
      writes: false,
      success: ['200', 'StoredRecordPage'],
      problems: [404],
      query: PAGING,
    }),
  },
  '/overview': {
    get: operation({
      id: 'getOverview',
      summary:
        "The dashboard's first read: the store's round trip, the mail outbox by state, the age of each signing key that signs, and how many users, clients and live grants there are (on PostgreSQL, estimated past 10,000 rows: see counts.approximate). A store that does not answer makes it fail (503).",
      writes: false,
      success: ['200', 'Overview'],
    }),
  },
  '/audit-events': {
    get: operation({
      id: 'listAuditEvents',
      summary: 'A page of the audit events, oldest first, filtered by event, actor and time.',
      writes: false,
      success: ['200', 'AuditEventPage'],
      query: [
        query('event', 'Only events of this name.'),
        query('actor', 'Only changes made by this actor (an admin client id, or cli).'),
        query('since', 'Only events at or after this time (RFC 3339).', { type: 'string', format: 'date-time' }),
        query('until', 'Only events before this time (RFC 3339).', { type: 'string', format: 'date-time' }),
        ...PAGING,
      ],
    }),
  },
};

/**
 * Every operation with the admin roles that may call it (`x-required-roles`, admin-roles.ts), and a
 * dangerous one with how recent a user's sign-in must be (`x-step-up-max-age`, step-up.ts).
 */
function withRequiredRoles(paths: Readonly<Record<string, Json>>): Json {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) =>
          // Path-level `parameters` is no operation.
          key === 'parameters' ? [key, value] : [key, withDeclarations(value as Json, path, key)],
        ),
      ),
    ]),
  );
}

function withDeclarations(operation: Json, path: string, method: string): Json {
  const maxAge = stepUpOf(operation['operationId']);
  const declared: Json = { ...operation, [REQUIRED_ROLES]: rolesAllowed(path, method) };
  if (maxAge === undefined) return declared;
  const responses = operation['responses'] as Json;
  return {
    ...declared,
    [STEP_UP]: maxAge,
    responses: { ...responses, '401': problemResponse(401, ['step_up_required']) },
  };
}

/** The admin API's document for a server whose issuer is `issuer`. */
export function adminDocument(issuer: string): Json {
  const scopes = {
    [ADMIN_SCOPE]: 'Every operation of the admin API',
    [ADMIN_READ_SCOPE]: 'The read-only operations of the admin API',
  };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Gatehouse admin API',
      version: '1.0.0',
      description:
        'Clients, users, upstream providers, organizations, grants, signing keys, the audit trail and the REST records of this Gatehouse server. ' +
        'Callers present an access token of an admin client (made with `gatehouse clients add --admin`) ' +
        "from the client_credentials grant, or a user's access token for the audience " +
        `${issuer}/admin/v1 (RFC 8707 resource) obtained through an admin client, whose user holds a server-wide ` +
        'admin role. Each operation names the roles that may call it in x-required-roles: admin (everything), ' +
        'user-manager (users and their grants), auditor (every read). An admin client acts as admin unless ' +
        'it was assigned narrower admin roles (gatehouse roles assign … --server-wide --client ID). ' +
        `A dangerous operation (x-step-up-max-age) needs a user's token whose sign-in (auth_time) is at most ${STEP_UP_MAX_AGE} s old, ` +
        'else 401 step_up_required with an RFC 9470 challenge (error="insufficient_user_authentication", max_age); ' +
        "an admin client's own client_credentials token has no sign-in and is not asked.",
    },
    servers: [{ url: `${issuer}/admin/v1`, description: 'This Gatehouse server' }],
    paths: withRequiredRoles({
      ...PATHS,
      ...accessPaths({ operation, query, pathParameter, paging: PAGING, search }),
      ...invitationPaths({ operation, pathParameter }),
    }),
    components: {
      schemas: { ...ADMIN_SCHEMAS, ...ACCESS_SCHEMAS, ...INVITATION_SCHEMAS },
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'oauth2',
          description:
            'RFC 6750 bearer access tokens of an admin client, from RFC 6749 §4.4 client credentials, or of an ' +
            "operator signed in through an admin client's authorization code flow.",
          flows: {
            clientCredentials: { tokenUrl: `${issuer}/token`, scopes },
            authorizationCode: { authorizationUrl: `${issuer}/authorize`, tokenUrl: `${issuer}/token`, scopes },
          },
        },
      },
    },
  };
}
