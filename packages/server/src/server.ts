import { TrustedIssuers, type TrustedIssuerConfig } from './oauth/token-exchange/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { DEFAULT_RATE_LIMITS, type RateLimitPolicies } from './rate-limits.js';
import { RateLimiter } from './abuse/rate-limiter.js';
import { loadApiDefinition, type ApiDefinition } from './api/definition.js';
import { buildApp } from './app.js';
import type { ConnectionLimits } from './http/connection-limits.js';
import { auditLog } from './http/audit-log.js';
import { serverLog } from './http/server-log.js';
import { AuditTrail, type AuditSink } from './audit/audit.js';
import { IDLE_CONNECTION_GRACE_MS } from './http/drain.js';
import type { EmailVerificationMode, ServerContext, SignUpSettings, TermsSettings } from './context.js';
import { AccessTokens } from './oauth/tokens/index.js';
import { IdTokens } from './oauth/tokens/index.js';
import { ClientKeys, type JwksFetcher } from './oauth/keys/index.js';
import { safeJwksFetcher } from './oauth/keys/index.js';
import { systemClock, type Clock } from './primitives/clock.js';
import { KeyEncryption } from './oauth/keys/index.js';
import { applyUpstreams } from './federation/administration.js';
import { ensureConsoleClient, type ConsoleFiles } from './console/index.js';
import type { UpstreamProviderInput } from './federation/providers.js';
import { KeyRing } from './oauth/keys/index.js';
import { DEFAULT_AUTHORIZATION_CODE_TTL } from './oauth/tokens/index.js';
import { DpopNonces, DpopProofs } from './oauth/sender-constraints/index.js';
import { RefreshSuccessors } from './oauth/tokens/index.js';
import { recordServedIssuer } from './oauth/discovery/index.js';
import { openStore } from './store/open.js';
import type { DemoFlows } from './pages/demo-flows.js';
import { API_PREFIX, documentScopes } from './api/resource-metadata.js';
import { ADMIN_API_PATH } from './access/index.js';
import { fetchClientLogo, type LogoFetcher, type RegistrationPolicy } from './oauth/clients/index.js';
import {
  ClientIdMetadataDocuments,
  DEFAULT_CLIENT_ID_METADATA_POLICY,
  type ClientIdMetadataPolicy,
} from './oauth/client-id-metadata/index.js';
import { OIDC_SCOPES } from './oauth/endpoints/discovery.js';
import type { MigrationMode } from './store/migrations.js';
import type { Store } from './store/store.js';
import { Languages, type Locale } from './i18n/index.js';
import { FactorSealing } from './factors/sealing.js';
import { loadBrand, type BrandSettings } from './branding/index.js';
import { GATEHOUSE_BRAND, type Brand } from './html/brand.js';
import type { SecondFactorPolicy } from './primitives/records.js';
import { usePasswordHashCost } from './users/passwords.js';
import { mailHostOf, MailWorker, Outbox, transportFor, type MailLog, type MailSettings } from './mail/index.js';

export interface ContextOptions {
  /**
   * Where every audit event goes besides the store, given once: the server's log (http/audit-log.ts),
   * or the CLI's (cli/open-context.ts). Every service records through the context's one trail.
   */
  readonly auditSink: AuditSink;
  readonly clock?: Clock;
  readonly rateLimits?: RateLimitPolicies;
  /** The rate limiter's clock, in epoch milliseconds (limits need finer time than `clock`). */
  readonly rateLimitClock?: () => number;
  /** KEY_ENCRYPTION_KEY: signing keys are sealed at rest under it. */
  readonly keyEncryptionKey?: string;
  /** CLIENT_REGISTRATION; off when undefined. */
  readonly clientRegistration?: RegistrationPolicy;
  /** TOKEN_EXCHANGE_TRUSTED_ISSUERS; none when undefined. */
  readonly trustedIssuers?: readonly TrustedIssuerConfig[];
  /** DPOP_NONCES: require server-provided nonces in DPoP proofs (RFC 9449 §8); off when undefined. */
  readonly dpopNonces?: boolean;
  /** The REST API served with this context: its scopes are ones a registered client may ask for. */
  readonly api?: ApiDefinition;
  /** CLIENT_ID_METADATA_*; off when undefined. */
  readonly clientIdMetadata?: Partial<ClientIdMetadataPolicy>;
  /** REQUIRE_PUSHED_AUTHORIZATION_REQUESTS; false when undefined. */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** How clients' jwks_uri are fetched; by the safe fetch to public addresses when undefined. */
  readonly jwksFetcher?: JwksFetcher;
  /** JWKS_URI_ALLOW_ADDRESSES: non-public ranges (CIDR) a jwks_uri may lead to. */
  readonly jwksUriAllowAddresses?: readonly string[];
  /** SECOND_FACTOR; `optional` when undefined. */
  readonly secondFactor?: SecondFactorPolicy;
  /** PASSWORD_RESET_REVOKES_GRANTS; true when undefined. */
  readonly passwordResetRevokesGrants?: boolean;
  /** EMAIL_VERIFICATION; `optional` when undefined. */
  readonly emailVerification?: EmailVerificationMode;
  /** TERMS_URL and TERMS_VERSION; no terms asked when undefined. */
  readonly terms?: TermsSettings;
  /** SIGN_UP and SIGN_UP_DOMAINS; off when undefined. */
  readonly signUp?: SignUpSettings;
  /** AUTHORIZATION_CODE_TTL, seconds; 60 when undefined. */
  readonly authorizationCodeTtl?: number;
  /** DEFAULT_LOCALE: the pages' language when nothing else chooses one; English when undefined. */
  readonly defaultLocale?: Locale;
  /** Tests only: the pages also speak the pseudo-locale `en-XA` (i18n/locales.ts). */
  readonly pseudoLocale?: boolean;
  /** The brand the pages and mails wear (BRAND_*, made by branding/); Gatehouse's own when undefined. */
  readonly brand?: Brand;
  /** How registered clients' logo_uri are fetched; the safe fetch to public addresses when undefined. */
  readonly clientLogoFetcher?: LogoFetcher;
}

/** Builds the context the endpoints share: keys loaded (or created) from the store. */
export async function createContext(store: Store, issuer: string, options: ContextOptions): Promise<ServerContext> {
  const clock = options.clock ?? systemClock;
  const encryption =
    options.keyEncryptionKey === undefined ? undefined : KeyEncryption.fromSecret(options.keyEncryptionKey);
  const keys = await KeyRing.load(store, clock, encryption);
  const rateLimits = new RateLimiter(
    store.rateLimits,
    options.rateLimits ?? DEFAULT_RATE_LIMITS,
    options.rateLimitClock,
  );
  const refreshSuccessors = await RefreshSuccessors.load(store);
  const dpop = new DpopProofs(store, clock, options.dpopNonces ? await DpopNonces.load(store) : undefined);
  // RFC 8707 resource indicators: the REST API's identifier (RFC 9728), when one is served, and the
  // admin API's, whose tokens a signed-in operator's client asks for (resource={issuer}/admin/v1).
  const accessTokens = new AccessTokens(issuer, keys, [
    ...(options.api === undefined ? [] : [`${issuer}${API_PREFIX}`]),
    `${issuer}${ADMIN_API_PATH}`,
  ]);
  const idTokens = new IdTokens(issuer, keys);
  const clientRegistration = options.clientRegistration ?? 'off';
  const apiScopes = options.api === undefined ? [] : documentScopes(options.api, issuer);
  const registrableScopes = [...OIDC_SCOPES, ...apiScopes];
  const factorKey = await store.findServerSecret('factor_sealing_key');
  if (factorKey === undefined) throw new Error('the store has no factor_sealing_key: run gatehouse migrate');
  const signIn = {
    secondFactor: options.secondFactor ?? 'optional',
    factors: { sealing: new FactorSealing(factorKey, options.keyEncryptionKey), issuer },
  };
  const audit = new AuditTrail(store, options.auditSink);
  const mail = new Outbox({ sealing: signIn.factors.sealing, audit, host: mailHostOf(issuer), now: () => clock.now() });
  return {
    signIn,
    mail,
    languages: new Languages({ defaultLocale: options.defaultLocale, pseudoLocale: options.pseudoLocale }),
    accounts: {
      passwordResetRevokesGrants: options.passwordResetRevokesGrants ?? true,
      emailVerification: options.emailVerification ?? 'optional',
      ...(options.terms ? { terms: options.terms } : {}),
      signUp: options.signUp ?? { mode: 'off', domains: [] },
    },
    brand: options.brand ?? GATEHOUSE_BRAND,
    store,
    audit,
    clock,
    issuer,
    keys,
    accessTokens,
    idTokens,
    refreshSuccessors,
    dpop,
    rateLimits,
    clientRegistration,
    registrableScopes,
    clientIdMetadataDocuments: new ClientIdMetadataDocuments(
      { ...DEFAULT_CLIENT_ID_METADATA_POLICY, ...options.clientIdMetadata },
      { store, clock, audit, offeredScopes: registrableScopes },
    ),
    trustedIssuers:
      options.trustedIssuers === undefined ? TrustedIssuers.none : new TrustedIssuers(options.trustedIssuers),
    clientKeys: new ClientKeys(
      options.jwksFetcher ?? safeJwksFetcher({ allowAddresses: options.jwksUriAllowAddresses ?? [] }),
      () => clock.now(),
    ),
    clientLogos: options.clientLogoFetcher ?? fetchClientLogo,
    requirePushedAuthorizationRequests: options.requirePushedAuthorizationRequests ?? false,
    authorizationCodeTtl: options.authorizationCodeTtl ?? DEFAULT_AUTHORIZATION_CODE_TTL,
  };
}

export interface StartOptions {
  readonly databaseUrl: string;
  readonly issuer: string;
  readonly port: number;
  readonly host: string;
  readonly clock?: Clock;
  readonly logger?: FastifyServerOptions['logger'];
  /** The OpenAPI document (a path, or a definition already loaded); no REST API when undefined. */
  readonly api?: string | ApiDefinition;
  /** Apply pending migrations (default), or refuse to start while any is pending. */
  readonly migrations?: MigrationMode;
  readonly trustProxy?: boolean | string;
  /** METRICS_TOKEN (see AppOptions). */
  readonly metricsToken?: string;
  /** Rate limits (RATE_LIMIT_*); the defaults when undefined. */
  readonly rateLimits?: RateLimitPolicies;
  readonly rateLimitClock?: () => number;
  /** Limits against slow and greedy clients (REQUEST_TIMEOUT_MS and friends); the defaults when undefined. */
  readonly connectionLimits?: Partial<ConnectionLimits>;
  /** KEY_ENCRYPTION_KEY (see ContextOptions). */
  readonly keyEncryptionKey?: string;
  /** `serve --demo` (see AppOptions). */
  readonly demo?: DemoFlows;
  /** The admin console's build (see AppOptions); the built package's by default. */
  readonly console?: ConsoleFiles | false;
  /** CLIENT_REGISTRATION (see ContextOptions). */
  readonly clientRegistration?: RegistrationPolicy;
  /** CLIENT_ID_METADATA_* (see ContextOptions). */
  readonly clientIdMetadata?: Partial<ClientIdMetadataPolicy>;
  /** Upstream OpenID Providers to add or replace at start (UPSTREAMS_FILE, federation/administration.ts). */
  readonly upstreams?: readonly UpstreamProviderInput[];
  /** TOKEN_EXCHANGE_TRUSTED_ISSUERS (see ContextOptions). */
  readonly trustedIssuers?: readonly TrustedIssuerConfig[];
  /** REQUIRE_PUSHED_AUTHORIZATION_REQUESTS (see ContextOptions). */
  readonly requirePushedAuthorizationRequests?: boolean;
  /** How clients' jwks_uri are fetched (see ContextOptions). */
  readonly jwksFetcher?: JwksFetcher;
  /** How clients' logo_uri are fetched (see ContextOptions). */
  readonly clientLogoFetcher?: LogoFetcher;
  /** JWKS_URI_ALLOW_ADDRESSES (see ContextOptions). */
  readonly jwksUriAllowAddresses?: readonly string[];
  /** DPOP_NONCES (see ContextOptions). */
  readonly dpopNonces?: boolean;
  /** SECOND_FACTOR (see ContextOptions). */
  readonly secondFactor?: SecondFactorPolicy;
  /** PASSWORD_RESET_REVOKES_GRANTS (see ContextOptions). */
  readonly passwordResetRevokesGrants?: boolean;
  /** EMAIL_VERIFICATION (see ContextOptions). */
  readonly emailVerification?: EmailVerificationMode;
  /** TERMS_URL, TERMS_VERSION (see ContextOptions). */
  readonly terms?: TermsSettings;
  /** SIGN_UP, SIGN_UP_DOMAINS (see ContextOptions). */
  readonly signUp?: SignUpSettings;
  /** AUTHORIZATION_CODE_TTL (see ContextOptions). */
  readonly authorizationCodeTtl?: number;
  /** DEFAULT_LOCALE (see ContextOptions). */
  readonly defaultLocale?: Locale;
  /** Tests only: the pseudo-locale (see ContextOptions). */
  readonly pseudoLocale?: boolean;
  /** BRAND_*: the brand's settings, its images and stylesheet read at start; Gatehouse's own when undefined. */
  readonly branding?: BrandSettings;
  /** How long `close` still reads idle connections (http/drain.ts); in-process test servers pass 0. */
  readonly idleConnectionGraceMs?: number;
  /**
   * PASSWORD_HASH_COST: log2 of scrypt's N for the password hashes made from now on in this process
   * (users/passwords.ts); unset, the process keeps its cost (15 unless set before).
   */
  readonly passwordHashCost?: number;
  /** SMTP_URL, MAIL_FROM and the MAIL_* policy: a worker sends the outbox's messages; none when undefined. */
  readonly mail?: MailSettings;
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly context: ServerContext;
  /** Where the server listens, e.g. http://127.0.0.1:3000 */
  readonly url: string;
  /** The worker sending the outbox's messages, when the server was started with `mail`. */
  readonly mailWorker?: MailWorker;
  /** Stops accepting requests, lets those in flight finish, and logs how many it drained. */
  close(): Promise<void>;
}

/**
 * Opens the store, builds the app and listens. If a step after the store opened fails (the store
 * unreachable while the keys load, the port taken), what was opened is closed again before the
 * error is thrown: a caller may start again (a worker waiting out an outage: cli/worker-start.ts).
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  if (options.passwordHashCost !== undefined) usePasswordHashCost(options.passwordHashCost);
  // A broken document stops the server before anything listens.
  const api = typeof options.api === 'string' ? loadApiDefinition(options.api) : options.api;
  // So does a brand image that cannot be fetched or read, or a stylesheet file that cannot.
  const brand = options.branding === undefined ? GATEHOUSE_BRAND : await loadBrand(options.branding);
  const store = await openStore(options.databaseUrl, { migrations: options.migrations ?? 'apply' });
  const log = serverLog(options.logger);
  let context: ServerContext | undefined;
  try {
    context = await createContext(store, options.issuer, { ...options, api, brand, auditSink: auditLog(log) });
    return running(await listening(context, options, api, log), context, store, options);
  } catch (error) {
    context?.keys.stop();
    context?.rateLimits.stop();
    await store.close().catch(() => {});
    throw error;
  }
}

/** The start's steps after the context: the served issuer, the configured upstreams, the app listening, the mail worker. */
async function listening(
  context: ServerContext,
  options: StartOptions,
  api: ApiDefinition | undefined,
  log: ReturnType<typeof serverLog>,
): Promise<Listening> {
  const { store } = context;
  await recordServedIssuer(store, options.issuer, context.clock.now());
  await ensureConsoleClient(context);
  if (options.upstreams !== undefined)
    await applyUpstreams(store, context.audit, options.upstreams, context.clock.now(), context.keys.encryption, {
      id: 'config',
    });
  const app = await buildApp(context, {
    logger: log,
    api,
    trustProxy: options.trustProxy,
    metricsToken: options.metricsToken,
    connectionLimits: options.connectionLimits,
    demo: options.demo,
    console: options.console,
  });
  context.keys.startReloading();
  context.rateLimits.start();
  const mailWorker = options.mail && startMailWorker(context, store, options.mail, log ?? SILENT_MAIL_LOG);
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    await mailWorker?.stop();
    await app.close().catch(() => {});
    throw error;
  }
  return { app, mailWorker };
}

/** The app listening, and the mail worker it started. */
interface Listening {
  readonly app: FastifyInstance;
  readonly mailWorker: MailWorker | undefined;
}

function running(
  { app, mailWorker }: Listening,
  context: ServerContext,
  store: Store,
  options: StartOptions,
): RunningServer {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    app,
    context,
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    mailWorker,
    async close() {
      const count = app.drain.inFlight;
      app.drain.begin();
      app.log.info({ inFlight: count }, `stopping: finishing ${count} request(s) in flight`);
      context.keys.stop();
      context.rateLimits.stop();
      // The message in hand is sent and recorded before the store closes; the others claimed are given back.
      const mailStopped = mailWorker?.stop();
      // Meanwhile the server still answers (each answer closing its connection); then it stops
      // accepting, closes the connections still idle and waits for the requests in flight.
      await sleep(options.idleConnectionGraceMs ?? IDLE_CONNECTION_GRACE_MS);
      await app.close();
      await mailStopped;
      await store.close();
      app.log.info({ drainedRequests: count }, `stopped after draining ${count} request(s)`);
    },
  };
}

/** Where a server that logs nothing (tests) has its mail worker say nothing. */
const SILENT_MAIL_LOG: MailLog = { info: () => {}, warn: () => {} };

/** The process's mail worker, started: it sends what is due now, then whatever is queued or falls due. */
function startMailWorker(context: ServerContext, store: Store, settings: MailSettings, log: MailLog): MailWorker {
  const worker = new MailWorker({
    store,
    audit: context.audit,
    outbox: context.mail,
    transport: transportFor(settings.transport, log),
    from: settings.from,
    policy: settings.policy,
    log,
    now: () => context.clock.now(),
  });
  worker.start();
  return worker;
}
