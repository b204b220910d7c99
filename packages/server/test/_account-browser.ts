import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { startMailedServer, type MailedServer } from './_account-mail.js';
import { launchChromium, startCallbackServer, watchedPage, type CallbackServer } from './_browser.js';
import type { TestClient, TestServer, TestServerOptions } from './_server.js';
import type { ArrivedMail } from './_smtp.js';

/**
 * What the browser suites of accounts share (sign-up, password reset, invitations, passkeys, required
 * actions): a server that mails through a real SMTP server (_account-mail.ts) with an application and
 * chromium, a relying party through openid-client, and a browser profile with a virtual authenticator.
 */

/**
 * What a browser suite of accounts runs against: Gatehouse mailing through a real SMTP server, the
 * application `notes` (scopes openid, profile, email) redirecting to a loopback listener, and chromium.
 */
export interface AccountsBrowserSetup extends MailedServer {
  readonly callback: CallbackServer;
  readonly client: TestClient;
  readonly browser: Browser;
}

/**
 * Starts it: the server with `options`, reachable from the browser at 127.0.0.1 unless they say
 * otherwise; `notes` a public client unless `confidential`.
 */
export async function startAccountsBrowser(
  options: TestServerOptions = {},
  { confidential = false }: { readonly confidential?: boolean } = {},
): Promise<AccountsBrowserSetup> {
  const mailed = await startMailedServer({ reachableIssuer: true, ...options });
  let callback: CallbackServer | undefined;
  try {
    callback = await startCallbackServer();
    const client = await mailed.server.addClient({
      id: 'notes',
      name: 'Notes',
      public: !confidential,
      redirectUris: [callback.uri],
      scope: ['openid', 'profile', 'email'],
    });
    const browser = await launchChromium();
    const started = callback;
    return {
      ...mailed,
      callback: started,
      client,
      browser,
      async close() {
        await browser.close();
        await started.close();
        await mailed.close();
      },
    };
  } catch (error) {
    await callback?.close();
    await mailed.close();
    throw error;
  }
}

/** The first link to `path` in a mail's text body, checked to lead to `issuer`. */
export function linkIn(mail: ArrivedMail | undefined, issuer: string, path: string): string {
  const link = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]+`).exec(mail?.text ?? '')?.[0];
  if (link === undefined) assert.fail(`a link to ${path} in the mail: ${mail?.text}`);
  assert.ok(link.startsWith(issuer), `the mail links to this server: ${link}`);
  return link;
}

/** An application signing people in through openid-client (PKCE, state, nonce): where to send the browser, and the end. */
export interface RelyingParty {
  /** The authorization request's URL. */
  readonly url: URL;
  /** The callback's URL exchanged for tokens, checked; the ID token's claims and userinfo. */
  finish(callback: string): Promise<{ readonly claims: oidc.IDToken; readonly userinfo: oidc.UserInfoResponse }>;
}

/** Discovers `server` as openid-client does and starts one authorization request of the public client `clientId`. */
export async function relyingParty(
  server: TestServer,
  clientId: string,
  redirectUri: string,
  scope: string,
): Promise<RelyingParty> {
  const config = await oidc.discovery(new URL(server.context.issuer), clientId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return {
    url,
    async finish(callback) {
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      const claims = tokens.claims() ?? assert.fail('an ID token');
      return { claims, userinfo: await oidc.fetchUserInfo(config, tokens.access_token, claims.sub) };
    },
  };
}

/** A browser profile with its page, and a virtual authenticator in it. */
export interface AuthenticatorProfile {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly authenticatorId: string;
}

/**
 * A fresh browser profile (watchedPage) with a virtual platform authenticator (Chrome DevTools
 * Protocol `WebAuthn.addVirtualAuthenticator`: CTAP2, internal, discoverable credentials, verifying
 * its user, presence simulated). Its RP ID must be a name: the server's issuer is then localhost.
 */
export async function profileWithAuthenticator(browser: Browser, violations: string[]): Promise<AuthenticatorProfile> {
  const { context, page } = await watchedPage(browser, violations);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { context, page, cdp, authenticatorId };
}
