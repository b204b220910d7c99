import {
  DpopKey,
  buildAuthorizationUrl,
  codeChallengeS256,
  discoverAuthorizationServer,
  generateCodeVerifier,
  generateState,
  readAuthorizationCallback,
  requestTokens,
  revokeToken,
  type AuthorizationServerMetadata,
  type EndpointContext,
} from '@gatehouse/client';
import type { ConsoleConfig } from './config.js';
import { checkIdToken, type IdTokenClaims, type IdTokenVerdict } from './id-token.js';

/** The authorization request in flight, kept in sessionStorage across the redirect (this tab only). */
interface PendingSignIn {
  readonly state: string;
  readonly verifier: string;
  readonly nonce: string;
  /** The console path to come back to. */
  readonly returnTo: string;
  readonly maxAge?: number;
}

const PENDING_KEY = 'gatehouse-console.pending';

/**
 * The operator's tokens, in memory only: a reload signs in again (silently while the server's
 * sign-in lasts). The access and refresh tokens are bound to a DPoP key whose private half cannot be
 * exported (RFC 9449), so a copied token is of no use from another page or machine.
 */
export interface ConsoleSession {
  readonly claims: IdTokenClaims;
  readonly idToken: string;
  accessToken: string;
  refreshToken: string | undefined;
  /** Epoch seconds. */
  accessTokenExpiresAt: number;
  readonly key: DpopKey;
}

/** How fresh a sign-in must be for a dangerous action (delete, key rotation, secret reset), seconds. */
export const STEP_UP_MAX_AGE = 300;

export class SignInRefused extends Error {
  readonly reason: Exclude<IdTokenVerdict, { ok: true }>['reason'] | 'callback';

  constructor(reason: SignInRefused['reason']) {
    super(`sign-in refused: ${reason}`);
    this.reason = reason;
  }
}

export class Session {
  #metadata: Promise<AuthorizationServerMetadata> | undefined;
  #refreshing: Promise<string> | undefined;
  current: ConsoleSession | undefined;
  readonly config: ConsoleConfig;

  constructor(config: ConsoleConfig) {
    this.config = config;
  }

  metadata(): Promise<AuthorizationServerMetadata> {
    this.#metadata ??= discoverAuthorizationServer(this.config.issuer, (input, init) => fetch(input, init));
    return this.#metadata;
  }

  /**
   * Sends the browser to the authorization endpoint: code flow with PKCE S256 (RFC 7636), a nonce,
   * `acr_values=mfa` (OIDC Core §3.1.2.1: the server asks the second factor), and for a step-up
   * `max_age` with `prompt=login`, so the operator proves presence again.
   */
  async signIn(returnTo: string, { maxAge }: { readonly maxAge?: number } = {}): Promise<never> {
    const metadata = await this.metadata();
    const pending: PendingSignIn = {
      state: generateState(),
      verifier: generateCodeVerifier(),
      nonce: generateState(),
      returnTo,
      ...(maxAge === undefined ? {} : { maxAge }),
    };
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
    const url = new URL(
      buildAuthorizationUrl({
        authorizationEndpoint: metadata.authorization_endpoint as string,
        clientId: this.config.clientId,
        redirectUri: this.config.redirectUri,
        scope: this.config.scope,
        state: pending.state,
        codeChallenge: await codeChallengeS256(pending.verifier),
      }),
    );
    url.searchParams.set('nonce', pending.nonce);
    url.searchParams.set('acr_values', 'mfa');
    // RFC 8707 §2: the token is for the admin API, when the server names it as the console's resource.
    if (this.config.resource !== undefined) url.searchParams.set('resource', this.config.resource);
    if (maxAge !== undefined) {
      url.searchParams.set('max_age', String(maxAge));
      url.searchParams.set('prompt', 'login');
    }
    const lang = document.documentElement.lang;
    if (lang !== '') url.searchParams.set('ui_locales', lang);
    location.assign(url.href);
    return new Promise<never>(() => {});
  }

  /** The callback: state and issuer checked (RFC 9207), the code exchanged with a DPoP proof, the ID token checked. */
  async complete(callbackUrl: string): Promise<{ returnTo: string }> {
    const stored = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    const pending = stored === null ? undefined : (JSON.parse(stored) as PendingSignIn);
    const metadata = await this.metadata();
    let code: string;
    try {
      code = readAuthorizationCallback(callbackUrl, {
        issuer: metadata.issuer,
        issRequired: metadata.authorization_response_iss_parameter_supported === true,
        isPendingState: (state) => state === pending?.state,
      }).code;
    } catch {
      throw new SignInRefused('callback');
    }
    if (pending === undefined) throw new SignInRefused('callback');
    const key = await DpopKey.generate();
    const response = await requestTokens(this.#context(metadata, key), {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.config.redirectUri,
      code_verifier: pending.verifier,
      ...this.#resource(),
    });
    const now = Math.floor(Date.now() / 1000);
    const idToken = (response as { id_token?: string }).id_token;
    const verdict = checkIdToken(idToken, {
      issuer: metadata.issuer,
      clientId: this.config.clientId,
      nonce: pending.nonce,
      now,
      ...(pending.maxAge === undefined ? {} : { maxAge: pending.maxAge }),
    });
    if (!verdict.ok) {
      if (response.refresh_token !== undefined)
        await revokeToken(this.#context(metadata, key), response.refresh_token, 'refresh_token').catch(() => false);
      throw new SignInRefused(verdict.reason);
    }
    this.current = {
      claims: verdict.claims,
      idToken: idToken as string,
      accessToken: response.access_token,
      refreshToken: response.refresh_token,
      accessTokenExpiresAt: now + (response.expires_in ?? 60),
      key,
    };
    return { returnTo: pending.returnTo };
  }

  /** The console path of the page shown: '' for the dashboard, '/users/alice' ... */
  pagePath(): string {
    const home = new URL(this.config.home).pathname;
    return location.pathname.startsWith(home) ? location.pathname.slice(home.length).replace(/\/$/, '') : '';
  }

  /** Whether the sign-in is recent enough for a dangerous action (OIDC Core §2 `auth_time`). */
  isFresh(now = Math.floor(Date.now() / 1000)): boolean {
    const authTime = this.current?.claims.auth_time;
    return authTime !== undefined && now - authTime <= STEP_UP_MAX_AGE;
  }

  /** An access token with some life left, refreshed first when it has less than 30 s (RFC 6749 §6). */
  async accessToken(): Promise<string> {
    const session = this.current;
    if (session === undefined) throw new Error('not signed in');
    if (session.accessTokenExpiresAt - Math.floor(Date.now() / 1000) > 30) return session.accessToken;
    return this.refresh();
  }

  /**
   * Refreshes once for every caller at that moment: the refresh token is single use, and a second
   * use of it would be taken for reuse and end the session (RFC 9700 §4.14.2).
   */
  refresh(): Promise<string> {
    this.#refreshing ??= this.#refreshOnce().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<string> {
    const session = this.current;
    if (session?.refreshToken === undefined) throw new Error('not signed in');
    const metadata = await this.metadata();
    const response = await requestTokens(this.#context(metadata, session.key), {
      grant_type: 'refresh_token',
      refresh_token: session.refreshToken,
      ...this.#resource(),
    });
    session.accessToken = response.access_token;
    session.refreshToken = response.refresh_token ?? session.refreshToken;
    session.accessTokenExpiresAt = Math.floor(Date.now() / 1000) + (response.expires_in ?? 60);
    return session.accessToken;
  }

  /**
   * Signs out: the refresh token revoked (RFC 7009, its whole grant with it), then RP-initiated
   * logout (OpenID Connect RP-Initiated Logout 1.0 §2) ends the server's sign-in and returns here.
   */
  async signOut(): Promise<never> {
    const session = this.current;
    this.current = undefined;
    const metadata = await this.metadata();
    if (session?.refreshToken !== undefined)
      await revokeToken(this.#context(metadata, session.key), session.refreshToken, 'refresh_token').catch(() => false);
    const endSession = (metadata as { end_session_endpoint?: string }).end_session_endpoint;
    if (endSession === undefined) {
      location.assign(this.config.home);
    } else {
      const url = new URL(endSession);
      url.searchParams.set('client_id', this.config.clientId);
      url.searchParams.set('post_logout_redirect_uri', this.config.postLogoutRedirectUri);
      if (session !== undefined) url.searchParams.set('id_token_hint', session.idToken);
      location.assign(url.href);
    }
    return new Promise<never>(() => {});
  }

  /** RFC 8707 §2.2: every token is asked for the admin API, so that it is one the admin API accepts. */
  #resource(): { resource?: string } {
    return this.config.resource === undefined ? {} : { resource: this.config.resource };
  }

  #context(metadata: AuthorizationServerMetadata, key: DpopKey): EndpointContext {
    return {
      fetch: (input, init) => fetch(input, init),
      metadata,
      client: { clientId: this.config.clientId, method: 'none' },
      dpop: key,
    };
  }
}
