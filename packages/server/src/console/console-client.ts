import { ADMIN_API_PATH } from '../access/index.js';
import type { ServerContext } from '../context.js';
import { ADMIN_SCOPE, clientFromRegistration, type ClientRegistration } from '../oauth/clients/index.js';
import type { ClientRecord } from '../primitives/records.js';

/** The console's client id: a first-party public client the server registers itself. */
export const CONSOLE_CLIENT_ID = 'gatehouse-console';
/** What the console asks for: an ID token (OpenID Connect) naming the operator, and the admin API. */
export const CONSOLE_SCOPE = ['openid', 'profile', ADMIN_SCOPE] as const;
/** Where the console is served, below the issuer. */
export const CONSOLE_PATH = '/console';

export const consoleRedirectUri = (issuer: string): string => `${issuer}${CONSOLE_PATH}/callback`;
/** The resource the console's access tokens are for (RFC 8707 §2): the admin API. */
export const consoleResource = (issuer: string): string => `${issuer}${ADMIN_API_PATH}`;
const consoleHome = (issuer: string): string => `${issuer}${CONSOLE_PATH}`;

/** Idle and absolute lifetime of the console's sign-in: an operator's session is short. */
const CONSOLE_IDLE_SECONDS = 15 * 60;
const CONSOLE_ABSOLUTE_SECONDS = 8 * 60 * 60;
const CONSOLE_ACCESS_TOKEN_SECONDS = 5 * 60;

/**
 * The console's registration: public (a browser keeps no secret: RFC 6749 §2.1), PKCE (required of
 * every public client), its tokens bound to a DPoP key (RFC 9449 §5.2 `dpop_bound_access_tokens`),
 * a second factor required (the console also asks `acr_values=mfa`), short-lived. An admin client
 * of the sign-in kind (oauth/clients checkAdminRules): its tokens name the operator, reach the admin
 * API only for its audience, with the operator's own admin roles and, since this registration
 * requires a second factor, only when they say `acr` mfa (admin-api/caller.ts).
 */
export function consoleRegistration(issuer: string): ClientRegistration {
  return {
    id: CONSOLE_CLIENT_ID,
    name: 'Gatehouse console',
    public: true,
    admin: true,
    scope: [...CONSOLE_SCOPE],
    redirectUris: [consoleRedirectUri(issuer)],
    postLogoutRedirectUris: [consoleHome(issuer)],
    dpopBoundAccessTokens: true,
    secondFactor: 'required',
    accessTokenTtl: CONSOLE_ACCESS_TOKEN_SECONDS,
    refreshTokenTtl: CONSOLE_IDLE_SECONDS,
    refreshTokenAbsoluteTtl: CONSOLE_ABSOLUTE_SECONDS,
  };
}

/** Whether a stored console client is the one this version and issuer would register. */
function isCurrent(stored: ClientRecord, wanted: ClientRecord): boolean {
  const same = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
    JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
  return (
    stored.secretDigest === null &&
    stored.admin === wanted.admin &&
    same(stored.redirectUris, wanted.redirectUris) &&
    same(stored.postLogoutRedirectUris, wanted.postLogoutRedirectUris) &&
    same(stored.scope, wanted.scope) &&
    same(stored.grantTypes, wanted.grantTypes) &&
    stored.dpopBoundAccessTokens === wanted.dpopBoundAccessTokens &&
    stored.secondFactor === wanted.secondFactor &&
    stored.accessTokenTtl === wanted.accessTokenTtl &&
    JSON.stringify(stored.policy) === JSON.stringify(wanted.policy)
  );
}

/**
 * Registers the console's client at start, as it must be for this issuer: made when absent, put
 * back as registered when it differs (another issuer, an older version, an operator's edit). It has
 * no secret, so nothing is lost. Several processes starting at once all converge on one record.
 */
export async function ensureConsoleClient({ store, clock, issuer }: Pick<ServerContext, 'store' | 'clock' | 'issuer'>) {
  const now = clock.now();
  const registration = consoleRegistration(issuer);
  // The URIs are the issuer's own, which the operator configured: registration's rule for a
  // client's URIs (https, or http on loopback) is not the issuer's, and a test or a private
  // deployment may serve http on a name.
  const wanted: ClientRecord = {
    ...clientFromRegistration({ ...registration, redirectUris: [], postLogoutRedirectUris: [] }, now),
    redirectUris: registration.redirectUris ?? [],
    postLogoutRedirectUris: registration.postLogoutRedirectUris ?? [],
  };
  const stored = await store.findClient(CONSOLE_CLIENT_ID);
  if (stored === undefined) {
    // Another process may insert it first: then the stored one is this same registration.
    await store.insertClientIfAbsent(wanted);
    return;
  }
  if (!isCurrent(stored, wanted)) await store.replaceClient({ ...wanted, createdAt: stored.createdAt });
}
