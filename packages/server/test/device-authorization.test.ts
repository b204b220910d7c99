import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { addTestUser, assertPageHeaders, hiddenField, PageBrowser, PASSWORD, type PageAnswer } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError, assertOkJson, ISSUER } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';
import { digestOf } from '../src/primitives/secrets.js';
import { confirmOtpEnrolment } from '../src/factors/factors.js';
import { totpCode } from '../src/factors/totp.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §6.1: XXXX-XXXX from the consonants BCDFGHJKLMNPQRSTVWXZ. */
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
const WRONG_CODES_ALLOWED = 3;

interface DeviceAuthorization {
  readonly device_code: string;
  readonly user_code: string;
  readonly verification_uri: string;
  readonly verification_uri_complete: string;
  readonly expires_in: number;
  readonly interval: number;
}

for (const dialect of DIALECTS)
  describe(`the device authorization grant (RFC 8628) [${dialect}]`, () => {
    let server: TestServer;
    let tv: TestClient;

    before(async () => {
      server = await startTestServer({
        dialect,
        // The guessing test comes from an address of its own, so the others' wrong codes do not count.
        trustProxy: true,
        rateLimits: { user_code_failure_address: { limit: WRONG_CODES_ALLOWED, periodMs: 3_600_000 } },
      });
      tv = await server.addClient({
        id: 'tv',
        name: 'Living Room TV',
        public: true,
        grantTypes: [DEVICE_GRANT, 'refresh_token'],
      });
      await addTestUser(server, 'alice');
    });
    after(() => server.close());

    async function startDevice(as: TestClient = tv, form: Record<string, string> = {}): Promise<DeviceAuthorization> {
      return (await assertOkJson(
        await server.post('/device_authorization', form, { as }),
      )) as unknown as DeviceAuthorization;
    }

    const poll = (deviceCode: string, as: TestClient = tv): Promise<Response> =>
      server.post('/token', { grant_type: DEVICE_GRANT, device_code: deviceCode }, { as });

    /** The user at /device: types `typed`, signs in, decides. Returns the last page. */
    async function decide(typed: string, decision: 'allow' | 'deny'): Promise<PageAnswer> {
      const browser = new PageBrowser(server);
      const form = await browser.get('/device');
      const signIn = await browser.post('/device', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        user_code: typed,
      });
      assert.equal(signIn.status, 200, signIn.html);
      assert.match(signIn.html, /action="\/device\/login"/);
      const consent = await browser.post('/device/login', {
        csrf_token: hiddenField(signIn.html, 'csrf_token'),
        request: hiddenField(signIn.html, 'request'),
        username: 'alice',
        password: PASSWORD,
      });
      assert.equal(consent.status, 200, consent.html);
      assert.match(consent.html, /action="\/device\/consent"/);
      return browser.post('/device/consent', {
        csrf_token: hiddenField(consent.html, 'csrf_token'),
        request: hiddenField(consent.html, 'request'),
        decision,
      });
    }

    it('§3.2: the device authorization response has a device code, an XXXX-XXXX user code of the §6.1 alphabet, both URIs, expires_in and interval; the metadata names the endpoint and the grant (§4)', async () => {
      const started = await startDevice();
      assert.match(started.user_code, USER_CODE);
      assert.match(started.device_code, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(started.verification_uri, `${ISSUER}/device`);
      assert.equal(started.verification_uri_complete, `${ISSUER}/device?user_code=${started.user_code}`);
      assert.equal(started.expires_in, 600);
      assert.equal(started.interval, 5);
      // Stored as digests only: found by the digest of each code.
      const stored = await server.context.store.findDeviceAuthorization(digestOf(started.device_code));
      assert.equal(stored?.userCodeDigest, digestOf(started.user_code));
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata.device_authorization_endpoint, `${ISSUER}/device_authorization`);
      assert.ok((metadata.grant_types_supported as string[]).includes(DEVICE_GRANT));
    });

    it('§3.1: a client not registered for the device grant gets unauthorized_client, at /device_authorization and at /token; a scope beyond the client invalid_scope', async () => {
      const web = await server.addClient({ id: 'web', public: true });
      await assertOAuthError(await server.post('/device_authorization', {}, { as: web }), {
        error: 'unauthorized_client',
      });
      await assertOAuthError(await poll('x', web), { error: 'unauthorized_client' });
      await assertOAuthError(await server.post('/device_authorization', { scope: 'admin' }, { as: tv }), {
        error: 'invalid_scope',
      });
    });

    it('§3.5: authorization_pending until the user decides; slow_down when polling faster than the interval, which grows by 5 s each time', async () => {
      const { device_code } = await startDevice();
      const pending = {
        error: 'authorization_pending',
        description: 'the user has not yet approved or denied the device code',
      } as const;
      await assertOAuthError(await poll(device_code), pending);
      server.clock.advance(1);
      await assertOAuthError(await poll(device_code), { error: 'slow_down' });
      // The interval is now 10 s: 5 s later is still too fast, and it becomes 15 s.
      server.clock.advance(5);
      await assertOAuthError(await poll(device_code), { error: 'slow_down' });
      server.clock.advance(14);
      await assertOAuthError(await poll(device_code), { error: 'slow_down' });
      server.clock.advance(20);
      await assertOAuthError(await poll(device_code), pending);
    });

    it('§3.3, §3.4: the user types the code in lower case without the dash, signs in and allows; the poll gets tokens whose refresh token rotates like any other; the code is then used up (invalid_grant)', async () => {
      const { device_code, user_code } = await startDevice();
      const browser = new PageBrowser(server);
      const complete = await browser.get(`/device?user_code=${user_code}`);
      assertPageHeaders(complete);
      assert.ok(complete.html.includes(`value="${user_code}"`), 'verification_uri_complete fills the code in (§3.3.1)');
      const done = await decide(user_code.replace('-', '').toLowerCase(), 'allow');
      assert.equal(done.status, 200);
      assert.match(done.html, /Device connected/);
      const tokens = await assertOkJson(await poll(device_code));
      assert.equal(tokens.token_type, 'Bearer');
      assert.equal(tokens.scope, 'contacts:read contacts:write');
      const rotated = await refresh(server, tv, tokens.refresh_token as string);
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.refresh_token, tokens.refresh_token);
      await assertOAuthError(await poll(device_code), {
        error: 'invalid_grant',
        description: 'device code has already been used',
      });
    });

    it("OIDC Core §3.1.3.3: with the openid scope the device gets an ID token of the approving user, auth_time that sign-in's", async () => {
      const oidcTv = await server.addClient({
        id: 'oidc-tv',
        name: 'OIDC TV',
        public: true,
        grantTypes: [DEVICE_GRANT, 'refresh_token'],
        scope: ['openid', 'contacts:read'],
      });
      const { device_code, user_code } = await startDevice(oidcTv, { scope: 'openid contacts:read' });
      await decide(user_code, 'allow');
      const tokens = await assertOkJson(await poll(device_code, oidcTv));
      const claims = decodeJwt(tokens.id_token as string);
      const alice = await server.context.store.findUser('alice');
      assert.equal(claims.sub, alice?.subject);
      assert.equal(claims.aud, 'oidc-tv');
      assert.equal(claims.nonce, undefined);
      assert.equal(claims.auth_time, server.clock.now());
    });

    it('§3.3 with a second factor: password, then a one-time code (RFC 6238; a wrong one refused), then approval; the ID token says both (RFC 8176 amr)', async () => {
      const mfaTv = await server.addClient({
        id: 'mfa-tv',
        name: 'MFA TV',
        public: true,
        grantTypes: [DEVICE_GRANT],
        scope: ['openid', 'contacts:read'],
      });
      await addTestUser(server, 'tess');
      const tess = await server.context.store.findUser('tess');
      assert.ok(tess);
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const enrolled = await confirmOtpEnrolment(server.context.audit, server.context.signIn.factors, {
        subject: tess.subject,
        secret,
        code: totpCode(secret, server.clock.now()),
        now: server.clock.now(),
      });
      assert.ok(enrolled.ok);
      server.clock.advance(90); // past the enrolment's step: the next code is a new one
      const { device_code, user_code } = await startDevice(mfaTv, { scope: 'openid contacts:read' });
      const browser = new PageBrowser(server);
      const form = await browser.get('/device');
      const signIn = await browser.post('/device', { csrf_token: hiddenField(form.html, 'csrf_token'), user_code });
      assert.equal(signIn.status, 200, signIn.html);
      const factorPage = await browser.post('/device/login', {
        csrf_token: hiddenField(signIn.html, 'csrf_token'),
        request: hiddenField(signIn.html, 'request'),
        username: 'tess',
        password: PASSWORD,
      });
      assert.equal(factorPage.status, 200, factorPage.html.slice(0, 400));
      assert.doesNotMatch(factorPage.html, /action="\/device\/consent"/, 'no consent before the code');
      assert.match(factorPage.html, /action="\/device\/login"/);
      assert.match(factorPage.html, /name="code"/);
      const stepFields = (page: PageAnswer, code: string) => ({
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        method: hiddenField(page.html, 'method'),
        code,
      });
      const right = totpCode(secret, server.clock.now());
      const wrong = String((Number(right) + 7) % 1_000_000).padStart(6, '0');
      const refused = await browser.post('/device/login', stepFields(factorPage, wrong));
      assert.equal(refused.status, 401);
      assert.match(refused.html, /That code did not work/);
      // A pending sign-in approves nothing: the consent form posted now gets the factor page again.
      const early = await browser.post('/device/consent', {
        csrf_token: hiddenField(refused.html, 'csrf_token'),
        request: hiddenField(refused.html, 'request'),
        decision: 'allow',
      });
      assert.doesNotMatch(early.html, /Device connected/);
      await assertOAuthError(await poll(device_code, mfaTv), { error: 'authorization_pending', status: 400 });
      const consent = await browser.post('/device/login', stepFields(refused, right));
      assert.equal(consent.status, 200, consent.html.slice(0, 400));
      assert.match(consent.html, /action="\/device\/consent"/);
      const done = await browser.post('/device/consent', {
        csrf_token: hiddenField(consent.html, 'csrf_token'),
        request: hiddenField(consent.html, 'request'),
        decision: 'allow',
      });
      assert.match(done.html, /Device connected/);
      server.clock.advance(10); // past the polling interval (§3.5 slow_down otherwise)
      const tokens = await assertOkJson(await poll(device_code, mfaTv));
      const claims = decodeJwt(tokens.id_token as string);
      assert.equal(claims.sub, tess.subject);
      assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);
    });

    it('§3.5: after Deny the device gets access_denied, again on every retry; the page says access was refused', async () => {
      const { device_code, user_code } = await startDevice();
      const done = await decide(user_code, 'deny');
      assert.match(done.html, /Access denied/);
      for (let i = 0; i < 2; i++)
        await assertOAuthError(await poll(device_code), {
          error: 'access_denied',
          description: 'the user denied the device code',
        });
    });

    it('§3.5: past expires_in the device gets expired_token, and the page no longer takes the code', async () => {
      const { device_code, user_code } = await startDevice();
      server.clock.advance(600);
      await assertOAuthError(await poll(device_code), {
        error: 'expired_token',
        description: 'device code has expired',
      });
      const browser = new PageBrowser(server);
      const form = await browser.get('/device');
      const refused = await browser.post('/device', { csrf_token: hiddenField(form.html, 'csrf_token'), user_code });
      assert.equal(refused.status, 400);
      assert.match(refused.html, /That code did not work/);
    });

    it("§3.5, RFC 6749 §5.2: an unknown device code, or another client's, is invalid_grant", async () => {
      const other = await server.addClient({ id: 'other-tv', public: true, grantTypes: [DEVICE_GRANT] });
      const { device_code } = await startDevice();
      await assertOAuthError(await poll('not-a-device-code'), {
        error: 'invalid_grant',
        description: 'device code is invalid',
      });
      await assertOAuthError(await poll(device_code, other), {
        error: 'invalid_grant',
        description: 'device code was issued to another client',
      });
    });

    it('RFC 6749 §5.2: bad input gets catalog answers, never a 5xx: no or repeated device_code, a malformed scope, hostile codes on the page', async () => {
      await assertOAuthError(await server.post('/token', { grant_type: DEVICE_GRANT }, { as: tv }), {
        error: 'invalid_request',
        description: "missing required parameter 'device_code'",
      });
      await assertOAuthError(
        await server.post('/token', `grant_type=${encodeURIComponent(DEVICE_GRANT)}&device_code=a&device_code=b`, {
          as: tv,
        }),
        { error: 'invalid_request', description: "parameter 'device_code' was sent more than once" },
      );
      await assertOAuthError(await server.post('/device_authorization', { scope: 'bad\u0001scope' }, { as: tv }), {
        error: 'invalid_scope',
      });
      const browser = new PageBrowser(server);
      // An address of its own: these wrong codes use up its budget of guesses.
      browser.extraHeaders = { 'x-forwarded-for': '198.51.100.9' };
      const form = await browser.get('/device?user_code=a&user_code=%00%E2%80%AE');
      assert.equal(form.status, 200);
      for (const typed of ['x'.repeat(10_000), '\u0000BCDF-GHJK', 'ÀÀÀÀ-ÀÀÀÀ'])
        assert.equal(
          (await browser.post('/device', { csrf_token: hiddenField(form.html, 'csrf_token'), user_code: typed }))
            .status,
          400,
        );
    });

    it('§3.4: of concurrent polls of an approved device code exactly one gets tokens, and one grant is made', async () => {
      const { device_code, user_code } = await startDevice();
      await decide(user_code, 'allow');
      // Grants name their user by its subject (RFC 9068 §2.2), not the username.
      const alice = (await server.context.store.findUser('alice'))?.subject as string;
      const before = await server.context.store.listLiveGrants(tv.id, alice, server.clock.now());
      const answers = await Promise.all(Array.from({ length: 8 }, () => poll(device_code)));
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses.join(',')}`);
      for (const answer of answers.filter((a) => a.status !== 200))
        await assertOAuthError(answer, { error: 'invalid_grant', description: 'device code has already been used' });
      const grants = await server.context.store.listLiveGrants(tv.id, alice, server.clock.now());
      assert.equal(grants.length, before.length + 1);
    });

    it('§5.1: wrong user codes are audited and limited per address like sign-in: past the limit even the right code is refused with 429 and Retry-After', async () => {
      const { user_code } = await startDevice();
      const browser = new PageBrowser(server);
      browser.extraHeaders = { 'x-forwarded-for': '203.0.113.7' };
      const form = await browser.get('/device');
      const csrf = hiddenField(form.html, 'csrf_token');
      for (let i = 0; i < WRONG_CODES_ALLOWED; i++) {
        const wrong = await browser.post('/device', { csrf_token: csrf, user_code: 'BBBB-BBBB' });
        assert.equal(wrong.status, 400);
      }
      const limited = await browser.post('/device', { csrf_token: csrf, user_code });
      assert.equal(limited.status, 429);
      assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
      assert.match(limited.html, /Too many wrong codes/);
      const audited = await server.context.store.listAuditEvents({ event: 'user_code_failed', limit: 100 });
      assert.deepEqual(
        audited.filter((e) => e.address === '203.0.113.7').map((e) => e.reason),
        Array(WRONG_CODES_ALLOWED).fill('unknown'),
      );
    });
  });
