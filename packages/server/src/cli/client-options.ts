import { readFileSync } from 'node:fs';
import type { ClientChanges, PresentationChanges } from '../oauth/clients/index.js';
import { parseDuration } from './durations.js';
import { listOf, UsageError, type OptionDeclaration } from './declaration.js';

/**
 * The options of a client's settings, taken by `clients add` and `clients update` alike, and how
 * they become the settings the domain checks (oauth/clients/clients.ts: the same checks as the admin API's).
 */
export const CLIENT_SETTING_OPTIONS = {
  'redirect-uri': { type: 'string', multiple: true, value: 'URI', help: 'a redirect URI, matched exactly' },
  'grant-types': { type: 'string', value: 'LIST', help: 'the grant types it may use' },
  scope: { type: 'string', value: 'LIST', help: 'the scopes it may be granted (a --public client needs one)' },
  'rotation-limit': { type: 'string', value: 'N', help: 'how many times one refresh token may be used (1)' },
  'max-rotations': { type: 'string', value: 'N', help: "a cap on a grant's rotations (none)" },
  'no-rotation': { type: 'boolean', help: 'refreshing keeps the refresh token' },
  'refresh-ttl': { type: 'string', value: 'DURATION', help: "a refresh token's idle lifetime (14d)" },
  'absolute-ttl': { type: 'string', value: 'DURATION', help: "a grant's lifetime from its first token (90d)" },
  'access-ttl': { type: 'string', value: 'DURATION', help: "an access token's lifetime (5m)" },
  'replay-window': { type: 'string', value: 'DURATION', help: 'the concurrent-refresh window, 0s to 300s (0s)' },
  'resource-server': { type: 'boolean', help: "it may introspect every client's tokens" },
  'post-logout-redirect-uri': {
    type: 'string',
    multiple: true,
    value: 'URI',
    help: 'where RP-initiated logout may return the browser',
  },
  'id-token-alg': { type: 'string', value: 'RS256|ES256', help: 'the signing algorithm of its ID tokens (RS256)' },
  'exchange-audiences': {
    type: 'string',
    value: 'LIST',
    help: "token exchange: audiences it may ask for besides this server's own",
  },
  'exchange-subject-audiences': {
    type: 'string',
    value: 'LIST',
    help: 'token exchange: audiences of the subject tokens it may exchange besides its own tokens',
  },
  'exchange-impersonation': {
    type: 'string',
    value: 'on|off',
    help: 'token exchange: without an actor token, impersonate (no act claim) (off)',
  },
  'exchange-refresh-tokens': {
    type: 'string',
    value: 'on|off',
    help: 'token exchange: may ask for a refresh token (requested_token_type refresh_token) (off)',
  },
  jwks: {
    type: 'string',
    value: 'JSON|@FILE',
    help: 'its public keys, a JWK Set (private_key_jwt, signed requests); a new confidential client gets no secret',
  },
  'jwks-uri': { type: 'string', value: 'URL', help: 'where it publishes its public keys (instead of --jwks)' },
  'require-par': { type: 'boolean', help: 'its authorization requests must be pushed to /par (RFC 9126)' },
  'no-require-par': { type: 'boolean', help: 'its authorization requests may be sent to /authorize directly' },
  'dpop-bound': { type: 'boolean', help: 'every token request must carry a DPoP proof (RFC 9449)' },
  'second-factor': {
    type: 'string',
    value: 'off|optional|required',
    help: "whether signing in to it asks a second factor (the server's SECOND_FACTOR)",
  },
  profile: {
    type: 'string',
    value: 'fapi2|none',
    help: 'a security profile: fapi2, the FAPI 2.0 Security Profile (PAR, private_key_jwt, DPoP) (none)',
  },
} as const satisfies Record<string, OptionDeclaration>;

type SettingValues = { readonly [K in keyof typeof CLIENT_SETTING_OPTIONS]?: string | boolean | string[] };

/** The settings the options given name; an option not given is absent (its default, or unchanged). */
export function settingsFrom(values: SettingValues): Partial<ClientChanges> {
  const text = (option: keyof SettingValues): string | undefined => values[option] as string | undefined;
  const settings: Partial<Record<keyof ClientChanges, unknown>> = {
    redirectUris: values['redirect-uri'],
    grantTypes: listOf(text('grant-types')),
    scope: listOf(text('scope')),
    rotation: values['no-rotation'] ? false : undefined,
    rotationLimit: integerOption('rotation-limit', text('rotation-limit')),
    maxRotations: integerOption('max-rotations', text('max-rotations')),
    refreshTokenTtl: durationOption(text('refresh-ttl')),
    refreshTokenAbsoluteTtl: durationOption(text('absolute-ttl')),
    accessTokenTtl: durationOption(text('access-ttl')),
    replayWindow: durationOption(text('replay-window')),
    resourceServer: values['resource-server'] ? true : undefined,
    postLogoutRedirectUris: values['post-logout-redirect-uri'],
    idTokenAlg: text('id-token-alg'),
    exchangeAudiences: listOf(text('exchange-audiences')),
    exchangeSubjectAudiences: listOf(text('exchange-subject-audiences')),
    exchangeImpersonation: onOff('exchange-impersonation', text('exchange-impersonation')),
    exchangeRefreshTokens: onOff('exchange-refresh-tokens', text('exchange-refresh-tokens')),
    jwks: jwksOption(text('jwks')),
    jwksUri: text('jwks-uri'),
    requirePushedAuthorizationRequests: values['require-par'] ? true : values['no-require-par'] ? false : undefined,
    dpopBoundAccessTokens: values['dpop-bound'] ? true : undefined,
    secondFactor: text('second-factor'),
    profile: text('profile'),
  };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

function onOff(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new UsageError(`--${name} must be on or off`);
  return value === 'on';
}

/** --jwks: the JWK Set as JSON text, or `@path` of a file holding it. */
function jwksOption(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const text = value.startsWith('@') ? readText(value.slice(1)) : value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError('--jwks must be a JWK Set as JSON, or @FILE holding one');
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`--jwks: cannot read ${path}`);
  }
}

function integerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function durationOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The options of how the sign-in and consent pages present a client (RFC 7591 §2, §2.2), taken by
 * `clients add` and `clients update`; an empty value removes the field.
 */
export const PRESENTATION_OPTIONS = {
  'client-uri': { type: 'string', value: 'URL', help: 'its home page, linked on the sign-in and consent pages' },
  'logo-uri': { type: 'string', value: 'URL', help: 'its logo, fetched now and served from this server' },
  'policy-uri': { type: 'string', value: 'URL', help: 'its privacy policy, linked on the pages' },
  'tos-uri': { type: 'string', value: 'URL', help: 'its terms of service, linked on the pages' },
  'localized-name': {
    type: 'string',
    multiple: true,
    value: 'TAG=NAME',
    help: 'its name in a language (client_name#TAG), e.g. de=Fotobuch; shown on pages in that language',
  },
} as const satisfies Record<string, OptionDeclaration>;

type PresentationValues = { readonly [K in keyof typeof PRESENTATION_OPTIONS]?: string | string[] };

/** The presentation changes the options given name; undefined when none is given. */
export function presentationFrom(values: PresentationValues): PresentationChanges | undefined {
  const names: Record<string, string> = {};
  for (const pair of values['localized-name'] ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError('--localized-name must be TAG=NAME, e.g. de=Fotobuch');
    names[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const changes: PresentationChanges = {
    client_uri: values['client-uri'] as string | undefined,
    logo_uri: values['logo-uri'] as string | undefined,
    policy_uri: values['policy-uri'] as string | undefined,
    tos_uri: values['tos-uri'] as string | undefined,
    ...(Object.keys(names).length > 0 && { names }),
  };
  return Object.values(changes).some((v) => v !== undefined) ? changes : undefined;
}
