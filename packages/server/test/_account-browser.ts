import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom, type MailSettings } from '../src/mail/index.js';
import { browserSuiteSkip, watchedPage } from './_browser.js';
import { startTestServer, type TestServer, type TestServerOptions } from './_server.js';
import { TestSmtpServer, type ArrivedMail } from './_smtp.js';
import { TEST_CA } from './_tls.js';

/**
 * What the browser suites of accounts share (sign-up, password reset, invitations, passkeys): whether
 * chromium is there, a server that mails through a real SMTP server, a relying party through
 * openid-client, and a browser profile with a virtual authenticator.
 */

/**
 * Whether a browser suite runs (`browserSuiteSkip`): `skip` for the suite's options, or the error
 * of a missing chromium, which the suite's first test throws ("chromium is installed").
 */
export function browserAvailability(): { readonly skip: string | false; readonly unavailable: Error | undefined } {
  try {
    return { skip: browserSuiteSkip(), unavailable: undefined };
  } catch (error) {
    return { skip: false, unavailable: error as Error };
  }
}

/** The outbox's delivery, fast: a mail arrives within a fraction of a second of being queued. */
export function testMailSettings(smtp: TestSmtpServer): MailSettings {
  const policy = { ...DEFAULT_DELIVERY_POLICY, pollMs: 100, retryMs: 50, maxRetryMs: 400 };
  return { transport: smtpSettingsFrom(smtp.url, TEST_CA), from: 'Gatehouse <no-reply@gatehouse.test>', policy };
}

/** A Gatehouse reachable from the browser (its issuer an address the browser opens), mailing to `smtp`. */
export interface MailedServer {
  readonly server: TestServer;
  readonly smtp: TestSmtpServer;
  close(): Promise<void>;
}

/** Starts a real SMTP server, then Gatehouse mailing through it, reachable at `reachableIssuer` (default 127.0.0.1). */
export async function startMailedServer(options: TestServerOptions = {}): Promise<MailedServer> {
  const smtp = new TestSmtpServer();
  await smtp.start();
  const server = await startTestServer({ reachableIssuer: true, ...options, mail: testMailSettings(smtp) });
  return {
    server,
    smtp,
    async close() {
      await server.close();
      await smtp.stop();
    },
  };
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
