import {
  EMAIL_VERIFICATION_MODES,
  SIGN_UP_METHODS,
  SIGN_UP_MODES,
  type EmailVerificationMode,
  type SignUpMethod,
  type SignUpMode,
  type TermsSettings,
} from './context.js';
import { bearerTokenOf } from '@gatehouse/contract';
import { trustedIssuersFrom, type TrustedIssuerConfig } from './oauth/token-exchange/index.js';
import ipaddr from 'ipaddr.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rateLimitsFromEnv, type RateLimitPolicies } from './rate-limits.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/connection-limits.js';
import { logFormatFrom, type LogFormat } from './http/log-format.js';
import { projectRoot } from './project-root.js';
import type { TracingMode } from './telemetry/start.js';
import { SECOND_FACTOR_POLICIES, type SecondFactorPolicy } from './primitives/records.js';
import { REGISTRATION_POLICIES, type RegistrationPolicy } from './oauth/clients/index.js';
import { DEFAULT_AUTHORIZATION_CODE_TTL, MAX_AUTHORIZATION_CODE_TTL } from './oauth/tokens/index.js';
import { clientIdMetadataFromEnv } from './oauth/client-id-metadata/index.js';
import { PASSWORD_HASH_COSTS } from './users/passwords.js';
import type { ClientIdMetadataPolicy } from './oauth/client-id-metadata/index.js';
import { mailSettingsFromEnv, type MailSettings } from './mail/index.js';
import { defaultLocaleFrom, type Locale } from './i18n/index.js';
import { brandSettingsFromEnv, DEFAULT_BRAND_NAME, type BrandSettings } from './branding/index.js';
import { relyingPartyOf } from './webauthn/index.js';

/** Configuration from the environment; every variable is optional. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  /** The issuer identifier: the public base URL of this server, without a trailing slash. */
  readonly issuer: string;
  /**
   * Whether ISSUER was set. When not, commands that mint tokens use the issuer the server last ran
   * with (stored in the database by `serve`), not `http://localhost:$PORT`.
   */
  readonly issuerConfigured: boolean;
  readonly logLevel: string;
  /** LOG_FORMAT: json or pretty; unset, pretty when stdout is a terminal, JSON otherwise (http/log-format.ts). */
  readonly logFormat: LogFormat;
  /** The OpenAPI document of the REST API. */
  readonly openApiPath: string;
  /** Whether `serve` applies pending migrations; when false it refuses to start until `gatehouse migrate` ran. */
  readonly autoMigrate: boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (login throttling, logs):
   * false (none), true (any), or a comma-separated list of addresses/CIDRs.
   */
  readonly trustProxy: boolean | string;
  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`; when unset, only loopback callers may scrape. */
  readonly metricsToken?: string;
  /** RATE_LIMITS and RATE_LIMIT_<NAME> (see rate-limits.ts and abuse/policies.ts). */
  readonly rateLimits: RateLimitPolicies;
  /** HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_HEADER_BYTES, MAX_CONNECTIONS. */
  readonly connectionLimits: ConnectionLimits;
  /** KEY_ENCRYPTION_KEY: when set, signing keys are sealed at rest under it (oauth/keys/key-sealing.ts). */
  readonly keyEncryptionKey?: string;
  /** CLIENT_REGISTRATION: off (default), token or open (oauth/clients/dynamic-registration.ts). */
  readonly clientRegistration: RegistrationPolicy;
  /** CLIENT_ID_METADATA_DOCUMENTS and CLIENT_ID_METADATA_* (oauth/client-id-metadata/client-id-metadata-config.ts). */
  readonly clientIdMetadata: Partial<ClientIdMetadataPolicy>;
  /** UPSTREAMS_FILE: upstream OpenID Providers `serve` applies at start (docs/federation.md). */
  readonly upstreamsFile?: string;
  /** TRACING: off (default), otlp or api (telemetry/start.ts). */
  readonly tracing: TracingMode;
  /** TOKEN_EXCHANGE_TRUSTED_ISSUERS: whose JWTs a token exchange takes (oauth/token-exchange/trusted-issuers.ts). */
  readonly trustedIssuers: readonly TrustedIssuerConfig[];
  /** REQUIRE_PUSHED_AUTHORIZATION_REQUESTS: every authorization request must be pushed (RFC 9126 §5); false by default. */
  readonly requirePushedAuthorizationRequests: boolean;
  /** JWKS_URI_ALLOW_ADDRESSES: comma-separated CIDRs of non-public addresses a client's jwks_uri may lead to (none). */
  readonly jwksUriAllowAddresses: readonly string[];
  /** DPOP_NONCES: on requires server-provided nonces in DPoP proofs (RFC 9449 §8, §9); off (default). */
  readonly dpopNonces: boolean;
  /** SECOND_FACTOR: off, optional (default) or required, for every client that sets none. */
  readonly secondFactor: SecondFactorPolicy;
  /** PASSWORD_RESET_REVOKES_GRANTS: a password reset revokes the user's grants too; on by default. */
  readonly passwordResetRevokesGrants: boolean;
  /** EMAIL_VERIFICATION: off, optional (default) or required (docs/accounts.md). */
  readonly emailVerification: EmailVerificationMode;
  /** TERMS_URL and TERMS_VERSION: the terms a user accepts at sign-in (docs/accounts.md); unset, none. */
  readonly terms?: TermsSettings;
  /** SIGN_UP: off, open or invite (docs/accounts.md); undefined when unset (`serve --demo` then opens it). */
  readonly signUpMode?: SignUpMode;
  /** SIGN_UP_DOMAINS: comma-separated e-mail domains a sign-up's address may have; empty, any. */
  readonly signUpDomains: readonly string[];
  /** SIGN_UP_METHODS: password, passkey or both, comma-separated; undefined when unset (password; the demo both). */
  readonly signUpMethods?: readonly SignUpMethod[];
  /** PASSWORD_HASH_COST: log2 of scrypt's N for new password hashes (users/passwords.ts); unset, 15. */
  readonly passwordHashCost?: number;
  /** AUTHORIZATION_CODE_TTL: seconds an authorization code waits for its exchange, 1 to 600 (60). */
  readonly authorizationCodeTtl: number;
  /** SMTP_URL, SMTP_CA_FILE, MAIL_FROM, MAIL_OUTBOX_DIR and MAIL_* (mail/settings.ts): where the outbox's mail goes. */
  readonly mail: MailSettings;
  /** DEFAULT_LOCALE: the pages' language when nothing else chooses one, one of SUPPORTED_LOCALES (en). */
  readonly defaultLocale: Locale;
  /** BRAND_NAME, BRAND_LOGO_URL, BRAND_FAVICON_URL, BRAND_*_COLOR, BRAND_CSS_FILE (branding/settings.ts). */
  readonly branding: BrandSettings;
}

export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  onTerminal: boolean = process.stdout.isTTY === true,
): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${JSON.stringify(env.PORT)}`);
  const host = env.HOST || '127.0.0.1';
  const issuer = (env.ISSUER || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(issuer))
    throw new Error(`ISSUER must be an http(s) URL without query or fragment, got ${JSON.stringify(issuer)}`);
  return {
    port,
    host,
    // The defaults are in the project root, whichever of its folders the command runs from.
    databaseUrl: env.DATABASE_URL || `sqlite:${join(projectRoot(), 'data', 'gatehouse.db')}`,
    issuer,
    issuerConfigured: Boolean(env.ISSUER),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormatFrom(env.LOG_FORMAT, onTerminal),
    openApiPath: env.OPENAPI_PATH || defaultOpenApiPath(projectRoot()),
    autoMigrate: autoMigrateFrom(env.AUTO_MIGRATE),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    metricsToken: metricsTokenFrom(env.METRICS_TOKEN),
    rateLimits: rateLimitsFromEnv(env),
    connectionLimits: connectionLimitsFrom(env),
    keyEncryptionKey: env.KEY_ENCRYPTION_KEY || undefined,
    clientRegistration: clientRegistrationFrom(env.CLIENT_REGISTRATION),
    clientIdMetadata: clientIdMetadataFromEnv(env),
    upstreamsFile: env.UPSTREAMS_FILE || undefined,
    tracing: tracingFrom(env.TRACING),
    trustedIssuers: trustedIssuersFrom(env.TOKEN_EXCHANGE_TRUSTED_ISSUERS),
    requirePushedAuthorizationRequests: booleanFrom(
      'REQUIRE_PUSHED_AUTHORIZATION_REQUESTS',
      env.REQUIRE_PUSHED_AUTHORIZATION_REQUESTS,
      false,
    ),
    jwksUriAllowAddresses: addressRangesFrom('JWKS_URI_ALLOW_ADDRESSES', env.JWKS_URI_ALLOW_ADDRESSES),
    dpopNonces: dpopNoncesFrom(env.DPOP_NONCES),
    secondFactor: secondFactorFrom(env.SECOND_FACTOR),
    passwordHashCost: passwordHashCostFrom(env.PASSWORD_HASH_COST),
    passwordResetRevokesGrants: booleanFrom('PASSWORD_RESET_REVOKES_GRANTS', env.PASSWORD_RESET_REVOKES_GRANTS, true),
    emailVerification: emailVerificationFrom(env.EMAIL_VERIFICATION),
    terms: termsFrom(env.TERMS_URL, env.TERMS_VERSION),
    signUpMode: signUpModeFrom(env.SIGN_UP),
    signUpDomains: signUpDomainsFrom(env.SIGN_UP_DOMAINS),
    signUpMethods: signUpMethodsFrom(env.SIGN_UP_METHODS, issuer),
    authorizationCodeTtl: authorizationCodeTtlFrom(env.AUTHORIZATION_CODE_TTL),
    mail: mailSettingsFromEnv(env, issuer, projectRoot(), brandNameOf(env)),
    defaultLocale: defaultLocaleFrom(env.DEFAULT_LOCALE),
    branding: brandSettingsFromEnv(env),
  };
}

function passwordHashCostFrom(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const cost = Number(value);
  const { min, max } = PASSWORD_HASH_COSTS;
  if (!/^\d+$/.test(value) || cost < min || cost > max)
    throw new Error(
      `PASSWORD_HASH_COST is a whole number from ${min} to ${max} (log2 of scrypt's N), got ${JSON.stringify(value)}`,
    );
  return cost;
}

/**
 * The project's own openapi.yaml when it has one (the repository's, or one an operator puts next to
 * an installed server), else the document shipped in this package (copied into it by `npm pack`,
 * see package.json `prepack`): an installed server runs without one of its own.
 */
function defaultOpenApiPath(root: string): string {
  const own = join(root, 'openapi.yaml');
  if (existsSync(own)) return own;
  // The package root is one folder up from both src/config.ts and dist/config.js.
  return fileURLToPath(new URL('../openapi.yaml', import.meta.url));
}

/** RFC 6749 §4.1.2: short-lived, 10 minutes at most; whole seconds. */
function authorizationCodeTtlFrom(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_AUTHORIZATION_CODE_TTL;
  const seconds = /^[1-9]\d{0,3}$/.test(value) ? Number(value) : NaN;
  if (!(seconds <= MAX_AUTHORIZATION_CODE_TTL))
    throw new Error(
      `AUTHORIZATION_CODE_TTL must be whole seconds from 1 to ${MAX_AUTHORIZATION_CODE_TTL}, got ${JSON.stringify(value)}`,
    );
  return seconds;
}

function dpopNoncesFrom(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'off') return false;
  if (value === 'on') return true;
  throw new Error(`DPOP_NONCES is on or off, got ${JSON.stringify(value)}`);
}

function clientRegistrationFrom(value: string | undefined): RegistrationPolicy {
  const policy = REGISTRATION_POLICIES.find((p) => p === (value || 'off'));
  if (policy === undefined) throw new Error(`CLIENT_REGISTRATION is off, token or open, got ${JSON.stringify(value)}`);
  return policy;
}

function emailVerificationFrom(value: string | undefined): EmailVerificationMode {
  const mode = EMAIL_VERIFICATION_MODES.find((m) => m === (value || 'optional'));
  if (mode === undefined)
    throw new Error(`EMAIL_VERIFICATION is off, optional or required, got ${JSON.stringify(value)}`);
  return mode;
}

function signUpModeFrom(value: string | undefined): SignUpMode | undefined {
  if (value === undefined || value === '') return undefined;
  const mode = SIGN_UP_MODES.find((m) => m === value);
  if (mode === undefined) throw new Error(`SIGN_UP is off, open or invite, got ${JSON.stringify(value)}`);
  return mode;
}

/** Domain names as DNS writes them (RFC 1035 §2.3.1, letters, digits, hyphens, dots), lowercased. */
/**
 * TERMS_URL and TERMS_VERSION, both or neither: an http(s) URL of the document, and its version
 * (up to 64 printable characters; a new one asks every user again).
 */
function termsFrom(url: string | undefined, version: string | undefined): TermsSettings | undefined {
  if (!url && !version) return undefined;
  if (!url || !version) throw new Error('TERMS_URL and TERMS_VERSION are set together, or neither');
  if (!/^https?:\/\/[^\s/?#]+[^\s]*$/.test(url) || !URL.canParse(url))
    throw new Error(`TERMS_URL must be an http(s) URL, got ${JSON.stringify(url)}`);
  if (!/^[\x21-\x7e]{1,64}$/.test(version))
    throw new Error(`TERMS_VERSION is 1 to 64 printable characters without spaces, got ${JSON.stringify(version)}`);
  return { url, version };
}

function signUpDomainsFrom(value: string | undefined): readonly string[] {
  const domains = (value ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter((d) => d !== '');
  const wrong = domains.find(
    (d) => !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(d),
  );
  if (wrong !== undefined)
    throw new Error(`SIGN_UP_DOMAINS is a comma-separated list of domain names, got ${JSON.stringify(wrong)}`);
  return domains;
}

/**
 * SIGN_UP_METHODS: `password`, `passkey` or both. A passkey needs an issuer under a host name
 * (WebAuthn §5.1.2: an RP ID is a domain, never an IP address), so passkeys alone under an IP
 * address would leave a form nobody can use: refused at start. Both under one: the password alone.
 */
function signUpMethodsFrom(value: string | undefined, issuer: string): readonly SignUpMethod[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const named = value.split(',').map((m) => m.trim());
  const methods = SIGN_UP_METHODS.filter((m) => named.includes(m));
  const wrong = named.find((m) => !SIGN_UP_METHODS.some((known) => known === m));
  if (wrong !== undefined)
    throw new Error(`SIGN_UP_METHODS is password, passkey or both (comma-separated), got ${JSON.stringify(wrong)}`);
  if (!methods.includes('password') && relyingPartyOf(issuer) === undefined)
    throw new Error(
      `SIGN_UP_METHODS=passkey needs an issuer under a host name, not an IP address (passkeys cannot work at ${issuer}); add password or set ISSUER`,
    );
  return methods;
}

function secondFactorFrom(value: string | undefined): SecondFactorPolicy {
  const policy = SECOND_FACTOR_POLICIES.find((p) => p === (value || 'optional'));
  if (policy === undefined) throw new Error(`SECOND_FACTOR is off, optional or required, got ${JSON.stringify(value)}`);
  return policy;
}

const CONNECTION_LIMIT_VARIABLES: { readonly [K in keyof ConnectionLimits]: string } = {
  headersTimeoutMs: 'HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'KEEP_ALIVE_TIMEOUT_MS',
  maxHeaderBytes: 'MAX_HEADER_BYTES',
  maxConnections: 'MAX_CONNECTIONS',
};

function connectionLimitsFrom(env: NodeJS.ProcessEnv): ConnectionLimits {
  const limits: Record<string, number> = { ...DEFAULT_CONNECTION_LIMITS };
  for (const [key, variable] of Object.entries(CONNECTION_LIMIT_VARIABLES)) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    if (!/^[1-9]\d{0,9}$/.test(value))
      throw new Error(`${variable} must be a whole number above 0, got ${JSON.stringify(value)}`);
    limits[key] = Number(value);
  }
  const result = limits as unknown as ConnectionLimits;
  if (result.headersTimeoutMs > result.requestTimeoutMs)
    throw new Error('HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS');
  return result;
}

/** AUTO_MIGRATE: `true` (the default) or `false`, nothing else: a typo must not decide whether the schema changes. */
function tracingFrom(value: string | undefined): TracingMode {
  if (value === undefined || value === '' || value === 'off') return 'off';
  if (value === 'otlp' || value === 'api') return value;
  throw new Error(`TRACING must be off, otlp or api, got ${JSON.stringify(value)}`);
}

/**
 * METRICS_TOKEN is presented as `Authorization: Bearer <token>`, so it must be an RFC 6750 §2.1
 * b64token, or no scrape could ever present it. Its value is a secret: never in the message.
 */
function metricsTokenFrom(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (bearerTokenOf(`Bearer ${value}`) !== value)
    throw new Error(
      'METRICS_TOKEN must be a bearer token (RFC 6750 §2.1): letters, digits and - . _ ~ + / only, ' +
        'then any = signs (the value is not shown here)',
    );
  return value;
}

function autoMigrateFrom(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`AUTO_MIGRATE must be true or false, got ${JSON.stringify(value)}`);
}

/** A comma-separated list of CIDRs (or single addresses); empty when unset. */
function addressRangesFrom(name: string, value: string | undefined): string[] {
  const ranges = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const range of ranges) {
    const [address = '', bits] = range.split('/');
    if (!ipaddr.isValid(address) || (bits !== undefined && !/^\d{1,3}$/.test(bits)))
      throw new Error(`${name} must be comma-separated addresses or CIDR ranges, got ${JSON.stringify(range)}`);
  }
  return ranges;
}

/** A variable that is `true` or `false`, nothing else; `fallback` when unset. */
function booleanFrom(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new Error(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function trustProxyFrom(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  return value === 'true' ? true : value;
}

/** The product's name in the default MAIL_FROM, as BRAND_NAME sets it (checked with the brand's settings). */
function brandNameOf(env: NodeJS.ProcessEnv): string {
  return env.BRAND_NAME?.trim() || DEFAULT_BRAND_NAME;
}
