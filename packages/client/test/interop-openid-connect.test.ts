/**
 * Gatehouse as an OpenID Provider for openid-client v6 (panva) as a confidential relying party,
 * with OpenID Connect discovery: ID tokens (nonce, at_hash, the signature from jwks_uri), userinfo,
 * refresh with a new ID token, prompt=none and max_age.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { addUser } from '@gatehouse/server';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { CALLBACK, PASSWORD, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { hidden, UserAgent } from './_browser.js';
import { clientIdOnAccountPage } from './_oidc-browser.js';

const SCOPES = ['openid', 'profile', 'email', 'offline_access', 'contacts:read'];

describe('interoperability: Gatehouse as an OpenID Provider for openid-client', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse();
    await addUser(gatehouse.server.context.store, 'alice', PASSWORD, gatehouse.clock.now(), {
      name: 'Alice Liddell',
      given_name: 'Alice',
      family_name: 'Liddell',
      email: 'alice@example.com',
      email_verified: true,
    });
  });
  after(() => gatehouse.close());

  /** OpenID Connect discovery (the default of openid-client); plain-http loopback needs allowInsecureRequests. */
  async function relyingParty(id: string, extra: Record<string, unknown> = {}) {
    const registered = await gatehouse.addClient({ id, scope: SCOPES, ...extra });
    const config = await client.discovery(
      new URL(gatehouse.issuer),
      registered.id,
      registered.secret ?? undefined,
      client.ClientSecretBasic(registered.secret ?? ''),
      { execute: [client.allowInsecureRequests] },
    );
    return { config, registered };
  }

  async function signIn(
    config: client.Configuration,
    browser: UserAgent,
    params: Record<string, string> = {},
    {
      sendNonce = true,
      expectedNonce,
    }: { sendNonce?: boolean; expectedNonce?: string | typeof client.skipSubjectCheck } = {},
  ) {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid profile email contacts:read',
      state,
      ...(sendNonce ? { nonce } : {}),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ...params,
    });
    const callback = await browser.authorize(url.href);
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: (expectedNonce ?? (sendNonce ? nonce : undefined)) as string | undefined,
      idTokenExpected: true,
    });
    return { tokens, nonce };
  }

  test('the code exchange answers an ID token the relying party accepts: nonce, at_hash, and an RS256 signature from jwks_uri', async () => {
    const { config, registered } = await relyingParty('oidc-rp');
    const browser = new UserAgent();
    const { tokens, nonce } = await signIn(config, browser);
    const idToken = tokens.id_token ?? assert.fail('an ID token');
    assert.equal(decodeProtectedHeader(idToken).alg, 'RS256');
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri as string));
    const { payload } = await jwtVerify(idToken, jwks, { issuer: gatehouse.issuer, audience: registered.id });
    assert.equal(payload.nonce, nonce);
    assert.equal(payload.azp, registered.id);
    assert.deepEqual(payload.amr, ['pwd']);
    assert.equal(typeof payload.auth_time, 'number');
    const digest = createHash('sha256').update(tokens.access_token).digest();
    assert.equal(payload.at_hash, digest.subarray(0, 16).toString('base64url'));
    // The subject is opaque and stable, never the username.
    const claims = tokens.claims() ?? assert.fail('claims');
    assert.notEqual(claims.sub, 'alice');
    assert.match(claims.sub, /^[0-9a-f]{32}$/);
    assert.equal(claims.email, 'alice@example.com');
  });

  test('ES256 ID tokens for a client that registered id_token_signed_response_alg ES256, verified from the same jwks_uri', async () => {
    const { config, registered } = await relyingParty('oidc-rp-es256', { idTokenAlg: 'ES256' });
    const { tokens } = await signIn(config, new UserAgent());
    const idToken = tokens.id_token ?? assert.fail('an ID token');
    assert.equal(decodeProtectedHeader(idToken).alg, 'ES256');
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri as string));
    await jwtVerify(idToken, jwks, { issuer: gatehouse.issuer, audience: registered.id });
  });

  test('userinfo answers the claims of the profile and email scopes for the same subject, on GET and POST', async () => {
    const { config } = await relyingParty('oidc-rp-userinfo');
    const { tokens } = await signIn(config, new UserAgent());
    const sub = tokens.claims()?.sub ?? assert.fail('sub');
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    assert.equal(info.sub, sub);
    assert.equal(info.name, 'Alice Liddell');
    assert.equal(info.given_name, 'Alice');
    assert.equal(info.family_name, 'Liddell');
    assert.equal(info.email, 'alice@example.com');
    assert.equal(info.email_verified, true);
    assert.equal(typeof info.updated_at, 'number');
    const posted = await fetch(config.serverMetadata().userinfo_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: tokens.access_token }).toString(),
    });
    assert.equal(posted.status, 200);
    assert.equal(((await posted.json()) as { sub: string }).sub, sub);
    const refused = await fetch(config.serverMetadata().userinfo_endpoint as string, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer .*error="invalid_token"/);
  });

  test('refresh answers a new ID token for the same subject, with the original auth_time and no nonce', async () => {
    const { config } = await relyingParty('oidc-rp-refresh');
    const { tokens } = await signIn(config, new UserAgent());
    const first = tokens.claims() ?? assert.fail('claims');
    gatehouse.clock.advance(5);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? assert.fail('refresh token'));
    const again = refreshed.claims() ?? assert.fail('a new ID token');
    assert.equal(again.sub, first.sub);
    assert.equal(again.auth_time, first.auth_time);
    assert.ok(again.iat > first.iat);
    assert.equal(again.nonce, undefined);
  });

  test('a missing or mismatched nonce is not accepted by the relying party', async () => {
    const { config } = await relyingParty('oidc-rp-nonce');
    /** openid-client (oauth4webapi underneath) names the claim it refused somewhere in the error's causes. */
    const refusedClaim = (error: unknown): unknown => {
      for (let e = error as { cause?: unknown; claim?: unknown } | undefined; e; e = e.cause as typeof e)
        if (e.claim !== undefined) return e.claim;
      return undefined;
    };
    // Sent one nonce, expects another.
    const mismatched = await signIn(config, new UserAgent(), {}, { expectedNonce: 'another-nonce' }).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.equal(refusedClaim(mismatched), 'nonce', String(mismatched));
    // Sent none, expects one: the ID token has none.
    const missing = await signIn(config, new UserAgent(), {}, { sendNonce: false, expectedNonce: 'n-0S6_WzA2Mj' }).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.equal(
      missing instanceof Error && (missing.cause as Error | undefined)?.message,
      'JWT "nonce" (nonce) claim missing',
    );
  });

  test('prompt=none: a signed-in user with remembered consent gets a code and no page; a browser not signed in gets login_required', async () => {
    const { config } = await relyingParty('oidc-rp-none');
    const browser = new UserAgent();
    await signIn(config, browser);
    const silent = await signIn(config, browser, { prompt: 'none' });
    assert.deepEqual(browser.pagesShown, []);
    assert.ok(silent.tokens.id_token);

    const stranger = new UserAgent();
    const error = await signIn(config, stranger, { prompt: 'none' }).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.deepEqual(stranger.pagesShown, []);
    assert.ok(error instanceof client.AuthorizationResponseError, String(error));
    assert.equal(error.error, 'login_required');
  });

  test('prompt=none for a scope not consented to yet is consent_required, with no page', async () => {
    const { config } = await relyingParty('oidc-rp-none-consent');
    const browser = new UserAgent();
    await signIn(config, browser, { scope: 'openid' });
    await assert.rejects(signIn(config, browser, { prompt: 'none', scope: 'openid email' }), {
      error: 'consent_required',
    });
    assert.deepEqual(browser.pagesShown, []);
  });

  test('max_age=0 makes a signed-in user sign in again, and the ID token carries the new auth_time', async () => {
    const { config } = await relyingParty('oidc-rp-max-age');
    const browser = new UserAgent();
    const first = (await signIn(config, browser)).tokens.claims() ?? assert.fail('claims');
    gatehouse.clock.advance(30);
    const again = await signIn(config, browser, { max_age: '0' });
    assert.deepEqual(browser.pagesShown, ['login']);
    const claims = again.tokens.claims() ?? assert.fail('claims');
    assert.ok((claims.auth_time ?? 0) >= (first.auth_time ?? 0) + 30);
  });

  test('prompt=login shows the sign-in page to a signed-in user, prefilled with login_hint', async () => {
    const { config } = await relyingParty('oidc-rp-login');
    const browser = new UserAgent();
    await signIn(config, browser);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'openid',
      prompt: 'login',
      login_hint: 'alice',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await browser.get(url.href);
    assert.equal(page.status, 200);
    assert.match(page.html, /action="\/login"/);
    assert.match(page.html, /name="username" type="text" value="alice"/);
  });

  const SIGNED_OUT = 'http://127.0.0.1:8765/signed-out';

  test('RP-initiated logout with id_token_hint returns to the registered post_logout_redirect_uri with the state, and ends the session', async () => {
    const { config } = await relyingParty('oidc-rp-logout', { postLogoutRedirectUris: [SIGNED_OUT] });
    const browser = new UserAgent();
    const { tokens } = await signIn(config, browser);
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token ?? assert.fail('an ID token'),
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'bye-123',
    });
    const answer = await browser.get(url.href);
    assert.equal(answer.status, 302);
    assert.equal(answer.location, `${SIGNED_OUT}?state=bye-123`);
    // Signed out: a silent request now needs a sign-in.
    await assert.rejects(signIn(config, browser, { prompt: 'none' }), { error: 'login_required' });
  });

  test('an unregistered post_logout_redirect_uri gets a page, never a redirect', async () => {
    const { config } = await relyingParty('oidc-rp-logout-bad', { postLogoutRedirectUris: [SIGNED_OUT] });
    const browser = new UserAgent();
    const { tokens } = await signIn(config, browser);
    for (const uri of [`${SIGNED_OUT}/elsewhere`, 'https://attacker.example/', `${SIGNED_OUT}?x=1`]) {
      const url = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token as string,
        post_logout_redirect_uri: uri,
      });
      const answer = await browser.get(url.href);
      assert.equal(answer.status, 400, uri);
      assert.equal(answer.location, undefined);
      assert.match(answer.html, /This sign-out link is not valid/);
      assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    }
    // Still signed in: nothing was ended by the refused request.
    assert.ok((await signIn(config, browser, { prompt: 'none' })).tokens.id_token);
  });

  test('the plain /logout page asks first, and its form needs the CSRF token', async () => {
    const { config } = await relyingParty('oidc-rp-plain-logout');
    const browser = new UserAgent();
    await signIn(config, browser);
    const page = await browser.get(`${gatehouse.issuer}/logout`);
    assert.equal(page.status, 200);
    assert.match(page.html, /Sign out of Gatehouse\?/);
    const forged = await browser.post(`${gatehouse.issuer}/logout`, { csrf_token: 'forged', request: '' });
    assert.equal(forged.status, 403);
    const done = await browser.post(`${gatehouse.issuer}/logout`, {
      csrf_token: hidden(page.html, 'csrf_token'),
      request: hidden(page.html, 'request'),
    });
    assert.equal(done.status, 200);
    assert.match(done.html, /You are signed out/);
    await assert.rejects(signIn(config, browser, { prompt: 'none' }), { error: 'login_required' });
  });

  test('the account page lists the application, and removing it revokes the grant: the next refresh is invalid_grant, userinfo refuses the access token, and the full flow recovers', async () => {
    const { config } = await relyingParty('oidc-rp-account');
    const browser = new UserAgent();
    const { tokens } = await signIn(config, browser);
    const account = await browser.get(`${gatehouse.issuer}/account`);
    assert.equal(account.status, 200);
    assert.match(account.html, /oidc-rp-account/);
    assert.match(account.html, /Sign you in with your account/);
    assert.match(account.html, /See your email address and whether it is verified/);
    assert.match(account.html, /Allowed since /);
    assert.match(account.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const removed = await browser.post(`${gatehouse.issuer}/account/revoke`, {
      csrf_token: hidden(account.html, 'csrf_token'),
      client_id: clientIdOnAccountPage(account.html, 'oidc-rp-account'),
    });
    assert.equal(removed.status, 303);
    await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token as string), {
      error: 'invalid_grant',
      status: 400,
    });
    const info = await fetch(config.serverMetadata().userinfo_endpoint as string, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(info.status, 401);
    assert.doesNotMatch((await browser.get(`${gatehouse.issuer}/account`)).html, /oidc-rp-account/);
    // Recovery: the full flow asks for consent again and gives a working grant.
    const again = await signIn(config, browser);
    assert.deepEqual(browser.pagesShown, ['consent']);
    assert.ok((await client.refreshTokenGrant(config, again.tokens.refresh_token as string)).id_token);
  });

  test('removing access needs the CSRF token of the signed-in session', async () => {
    const { config } = await relyingParty('oidc-rp-account-csrf');
    const browser = new UserAgent();
    const { tokens } = await signIn(config, browser);
    const account = await browser.get(`${gatehouse.issuer}/account`);
    const forged = await browser.post(`${gatehouse.issuer}/account/revoke`, {
      csrf_token: 'forged',
      client_id: hidden(account.html, 'client_id'),
    });
    assert.equal(forged.status, 403);
    assert.ok((await client.refreshTokenGrant(config, tokens.refresh_token as string)).access_token);
  });
});
