import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../src/primitives/clock.js';
import { registerClient, type ClientRegistration } from '../src/oauth/clients/clients.js';
import { createAuthorizationCode } from '../src/oauth/tokens/authorization-codes.js';
import { issueOperatorGrant } from '../src/oauth/grant-administration/operator-grants.js';
import { s256 } from '../src/primitives/secrets.js';
import { newId } from '../src/primitives/ids.js';
import { normalizeUsername } from '../src/users/users.js';
import type { Repository } from '../src/store/repository.js';
import type { UserRecord } from '../src/store/identity-repository.js';
import { fileURLToPath } from 'node:url';
import { loadApiDefinition, type ApiDefinition } from '../src/api/definition.js';
import { createPostgresSchema, type Dialect } from './_dialects.js';
import { RATE_LIMIT_NAMES, type RateLimitPolicies } from '../src/rate-limits.js';
import type { ConnectionLimits } from '../src/http/connection-limits.js';
import type { DemoFlows } from '../src/pages/demo-flows.js';
import { startServer, type RunningServer, type StartOptions } from '../src/server.js';
import type { RegistrationPolicy } from '../src/oauth/clients/dynamic-registration.js';
import { freePort } from './_pg-cluster.js';
import { TEST_PASSWORD_HASH_COST } from './_password-cost.js';
import { storePremadeSigningKeys } from './_signing-keys.js';

/** The OpenAPI document shipped at the repository root. */
export const SHIPPED_OPENAPI = fileURLToPath(new URL('../../../openapi.yaml', import.meta.url));

let shippedApi: ApiDefinition | undefined;

/**
 * The shipped document, loaded once per process: parsing it and compiling its validators took some
 * 45 ms of each test server's start. A definition is read only (the served document is a copy).
 */
export function shippedApiDefinition(): ApiDefinition {
  return (shippedApi ??= loadApiDefinition(SHIPPED_OPENAPI));
}

/** A clock tests move by hand: "after time passes" without waiting. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = 1_800_000_000) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(seconds: number): void {
    this.#now += seconds;
  }
}

export interface TestServer extends RunningServer {
  readonly clock: ManualClock;
  /** The folder holding the SQLite file (and its WAL). */
  readonly dataDir: string;
  /** The store's DATABASE_URL, for a second process on the same database. */
  readonly databaseUrl: string;
  addClient(registration: Partial<ClientRegistration> & { id: string }): Promise<TestClient>;
  /**
   * A grant of the user `username` issued as `gatehouse grants issue` would: its first token
   * response. The user is made (without a usable password) when there is none.
   */
  issueGrant(client: TestClient, username?: string, scope?: readonly string[]): Promise<IssuedTokens>;
  /** A code of the user `username` (made when there is none) for a PKCE verifier, created through the store. */
  createCode(
    client: TestClient,
    options: {
      verifier: string;
      redirectUri: string;
      username?: string;
      scope?: readonly string[];
      /** The sign-in the code carries (OIDC Core §2 `auth_time`, RFC 8176 `amr`): none by default. */
      signIn?: { readonly authTime: number; readonly amr: readonly string[] };
    },
  ): Promise<string>;
  post(path: string, form: Record<string, string> | string, options?: PostOptions): Promise<Response>;
}

export interface TestClient {
  readonly id: string;
  readonly secret: string | null;
}

export interface IssuedTokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly grant_id: string;
  readonly scope: string;
}

export interface PostOptions {
  /** Client authentication: Basic header (default for confidential clients), body, or none. */
  readonly as?: TestClient;
  readonly auth?: 'basic' | 'post' | 'none';
  readonly headers?: Record<string, string>;
}

export interface TestServerOptions {
  /** The REST API's OpenAPI document (a path or a loaded definition); the shipped one by default. */
  readonly api?: string | ApiDefinition;
  /** The store's dialect; SQLite by default. */
  readonly dialect?: Dialect;
  /** Whose X-Forwarded-For to believe (TRUST_PROXY). */
  readonly trustProxy?: boolean | string;
  /** METRICS_TOKEN. */
  readonly metricsToken?: string;
  /** Rate limits to enforce; every other limit is so high that no test meets it (but still charged). */
  readonly rateLimits?: Partial<RateLimitPolicies>;
  readonly connectionLimits?: Partial<ConnectionLimits>;
  /** CLIENT_REGISTRATION; off by default. */
  readonly clientRegistration?: RegistrationPolicy;
  /** CLIENT_ID_METADATA_* (off by default). */
  readonly clientIdMetadata?: StartOptions['clientIdMetadata'];
  /** REQUIRE_PUSHED_AUTHORIZATION_REQUESTS; off by default. */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** How clients' jwks_uri are fetched; none by default. */
  readonly jwksFetcher?: StartOptions['jwksFetcher'];
  /** The server's logger options (e.g. a level and a `stream` capturing the lines); silent by default. */
  readonly logger?: StartOptions['logger'];
  /**
   * Whether the issuer is the URL the server listens on (a free port chosen first), for clients that
   * follow the metadata's URLs; otherwise the issuer is http://gatehouse.test. `localhost`: the same
   * port under the name localhost (still listening on 127.0.0.1), for passkeys, whose RP ID cannot be
   * an IP address.
   */
  readonly reachableIssuer?: boolean | 'localhost';
  /** `serve --demo`: the requests the demo printed, for /demo/callback (served only then). */
  readonly demo?: DemoFlows;
  /** TOKEN_EXCHANGE_TRUSTED_ISSUERS; none by default. */
  readonly trustedIssuers?: StartOptions['trustedIssuers'];
  /** DPOP_NONCES=on: server-provided nonces required in DPoP proofs. */
  readonly dpopNonces?: boolean;
  /** PASSWORD_RESET_REVOKES_GRANTS; on by default. */
  readonly passwordResetRevokesGrants?: boolean;
  /** EMAIL_VERIFICATION; `optional` by default. */
  readonly emailVerification?: StartOptions['emailVerification'];
  /** TERMS_URL, TERMS_VERSION; none by default. */
  readonly terms?: StartOptions['terms'];
  /** SIGN_UP, SIGN_UP_DOMAINS; off by default. */
  readonly signUp?: StartOptions['signUp'];
  /** SECOND_FACTOR; `optional` by default. */
  readonly secondFactor?: StartOptions['secondFactor'];
  /** KEY_ENCRYPTION_KEY; unset by default. */
  readonly keyEncryptionKey?: string;
  /** AUTHORIZATION_CODE_TTL; 60 s by default. */
  readonly authorizationCodeTtl?: number;
  /** The server's clock: a ManualClock at a fixed moment by default (one of now, for a client that checks times itself). */
  readonly clock?: ManualClock;
  /** SMTP_URL, MAIL_FROM and the MAIL_* policy: a mail worker runs; none by default. */
  readonly mail?: StartOptions['mail'];
  /** DEFAULT_LOCALE; English by default. */
  readonly defaultLocale?: StartOptions['defaultLocale'];
  /** The pages also speak the pseudo-locale en-XA (i18n/locales.ts); off by default. */
  readonly pseudoLocale?: boolean;
  /** How registered clients' logo_uri are fetched; the safe fetch to public addresses by default. */
  readonly clientLogoFetcher?: StartOptions['clientLogoFetcher'];
  /** BRAND_*: the brand's settings (branding/); Gatehouse's own by default. */
  readonly branding?: StartOptions['branding'];
  /** The admin console's build; the built package's (when built) by default. */
  readonly console?: StartOptions['console'];
}

/** Limits no test reaches, so that every request still goes through the limiter and its store. */
export const UNREACHABLE_RATE_LIMITS: RateLimitPolicies = Object.fromEntries(
  RATE_LIMIT_NAMES.map((name) => [name, { limit: 1_000_000_000, periodMs: 1000 }]),
) as RateLimitPolicies;

/** Starts Gatehouse on a fresh SQLite file, listening on a free port of 127.0.0.1. */
export async function startTestServer({
  api = SHIPPED_OPENAPI,
  dialect = 'sqlite',
  trustProxy,
  metricsToken,
  rateLimits,
  connectionLimits,
  clientRegistration,
  clientIdMetadata,
  requirePushedAuthorizationRequests,
  jwksFetcher,
  logger,
  reachableIssuer = false,
  demo,
  trustedIssuers,
  dpopNonces,
  secondFactor,
  passwordResetRevokesGrants,
  emailVerification,
  terms,
  signUp,
  keyEncryptionKey,
  authorizationCodeTtl,
  mail,
  defaultLocale,
  pseudoLocale,
  branding,
  clientLogoFetcher,
  console: consoleBuild,
  clock = new ManualClock(),
}: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
  const schema = dialect === 'postgres' ? await createPostgresSchema() : undefined;
  const databaseUrl = schema?.url ?? `sqlite:${join(dataDir, 'gatehouse.db')}`;
  const port = reachableIssuer ? await freePort() : 0;
  await storePremadeSigningKeys(databaseUrl, clock.now());
  const server = await startServer({
    databaseUrl,
    issuer: reachableIssuer
      ? `http://${reachableIssuer === 'localhost' ? 'localhost' : '127.0.0.1'}:${port}`
      : 'http://gatehouse.test',
    port,
    host: '127.0.0.1',
    clock,
    api: api === SHIPPED_OPENAPI ? shippedApiDefinition() : api,
    trustProxy,
    metricsToken,
    connectionLimits,
    clientRegistration,
    clientIdMetadata,
    requirePushedAuthorizationRequests,
    jwksFetcher,
    demo,
    logger,
    trustedIssuers,
    dpopNonces,
    secondFactor,
    passwordResetRevokesGrants,
    emailVerification,
    terms,
    signUp,
    keyEncryptionKey,
    authorizationCodeTtl,
    mail,
    defaultLocale,
    pseudoLocale,
    branding,
    clientLogoFetcher,
    console: consoleBuild,
    // Closed at once: the grace of a stopping server is the processes tier's (clean-stop.test.ts).
    idleConnectionGraceMs: 0,
    passwordHashCost: TEST_PASSWORD_HASH_COST,
    // The limiter runs on the test's clock too: time passes for it only when a test says so.
    rateLimits: { ...UNREACHABLE_RATE_LIMITS, ...rateLimits },
    rateLimitClock: () => clock.now() * 1000,
  });
  const { context } = server;
  return {
    ...server,
    clock,
    dataDir,
    databaseUrl,
    async close() {
      await server.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async addClient(registration) {
      const { client, secret } = await registerClient(
        context.store,
        {
          name: registration.id,
          scope: ['contacts:read', 'contacts:write'],
          redirectUris: ['https://app.example/callback'],
          ...registration,
        },
        clock.now(),
      );
      return { id: client.id, secret };
    },
    async issueGrant(client, username = 'alice', scope = ['contacts:read']) {
      await ensureTestUser(context.store, username, clock.now());
      return (await issueOperatorGrant(context, client.id, username, scope)) as IssuedTokens;
    },
    async createCode(client, { verifier, redirectUri, username = 'alice', scope = ['contacts:read'], signIn }) {
      const record = await context.store.findClient(client.id);
      if (!record) throw new Error(`no client ${client.id}`);
      const { subject } = await ensureTestUser(context.store, username, clock.now());
      return createAuthorizationCode(context.store, {
        client: record,
        subject,
        scope,
        redirectUri,
        codeChallenge: s256(verifier),
        now: clock.now(),
        lifetime: context.authorizationCodeTtl,
        ...(signIn === undefined ? {} : { authTime: signIn.authTime, amr: signIn.amr }),
      });
    },
    post(path, form, options = {}) {
      return postForm(`${server.url}${path}`, form, options);
    },
  };
}

/** A password hash no password matches (not even a well-formed one): for users made only to hold grants. */
export const UNUSABLE_PASSWORD_HASH = 'unusable';

/** The user `username`, made without a usable password when there is none (no scrypt: tests make many). */
export async function ensureTestUser(
  store: Pick<Repository, 'findUser' | 'insertUserIfAbsent'>,
  username: string,
  now: number,
): Promise<UserRecord> {
  const name = normalizeUsername(username);
  const found = await store.findUser(name);
  if (found) return found;
  const passwordHash = UNUSABLE_PASSWORD_HASH;
  await store.insertUserIfAbsent({
    username: name,
    passwordHash,
    createdAt: now,
    updatedAt: now,
    subject: newId(),
    claims: {},
  });
  return (await store.findUser(name)) as UserRecord;
}

export function basicAuthorization(id: string, secret: string): string {
  const encode = (s: string): string => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

export function postForm(
  url: string,
  form: Record<string, string> | string,
  { as, auth, headers = {} }: PostOptions = {},
): Promise<Response> {
  const params = new URLSearchParams(form);
  const allHeaders: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...headers };
  if (as) {
    const method = auth ?? (as.secret === null ? 'none' : 'basic');
    if (method === 'basic') allHeaders.authorization = basicAuthorization(as.id, as.secret ?? '');
    if (method === 'post') {
      params.set('client_id', as.id);
      params.set('client_secret', as.secret ?? '');
    }
    if (method === 'none') params.set('client_id', as.id);
  }
  return fetch(url, {
    method: 'POST',
    headers: allHeaders,
    body: typeof form === 'string' && !as ? form : params.toString(),
  });
}

/** Refreshes a token as `client` and returns status and parsed body. */
export async function refresh(
  server: TestServer,
  client: TestClient,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await server.post(
    '/token',
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra },
    { as: client },
  );
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** A valid PKCE verifier (RFC 7636 §4.1). */
export const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
