import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { runCli } from '../src/cli/run.js';
import { totpCode } from '../src/factors/totp.js';
import { setUserPassword } from '../src/users/user-administration.js';
import { addUser } from '../src/users/users.js';
import {
  assertPageHeaders,
  authorizationQuery,
  callbackParams,
  CALLBACK,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { api } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { enrolmentSecret, recoveryCodes } from './_factors.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const TERMS = { url: 'https://example.com/terms', version: '2026-11' } as const;
const TEMPORARY = 'temporary-given-by-the-operator-7Qx';
const CHOSEN = 'lantern orchard velvet compass';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

for (const dialect of DIALECTS)
  describe(`required actions at sign-in: a temporary password, a second factor, the terms [${dialect}]`, () => {
    let server: TestServer;
    let client: TestClient;

    before(async () => {
      server = await startTestServer({ dialect, terms: TERMS });
      client = await server.addClient({ id: 'app', redirectUris: [CALLBACK], scope: ['openid'] });
    });
    after(() => server?.close());

    /** A user with a temporary password (as `users passwd --temporary` sets it). */
    async function temporaryUser(username: string, options: { secondFactorRequired?: boolean } = {}): Promise<void> {
      await addUser(server.context.store, username, PASSWORD, server.clock.now(), {});
      if (options.secondFactorRequired)
        await server.context.store.setSecondFactorRequired(
          (await server.context.store.findUser(username))!.subject,
          true,
        );
      await setUserPassword(server.context.audit, username, TEMPORARY, server.clock.now(), CLI_ACTOR, {
        temporary: true,
      });
    }

    /** Posts a step of the page's form (its CSRF token and request). */
    function step(browser: PageBrowser, page: PageAnswer, fields: Record<string, string>): Promise<PageAnswer> {
      return browser.post('/login', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        ...fields,
      });
    }

    async function signIn(username: string, password: string) {
      const browser = new PageBrowser(server);
      const { challenge } = pkce();
      const query = authorizationQuery(client.id, challenge, { scope: 'openid', nonce: 'n' });
      const page = await browser.login(await browser.authorize(query), username, password);
      return { browser, query, page };
    }

    it('in order: a new password (policy checked, not the temporary one), the second factor required, then the terms; then the code', async () => {
      await temporaryUser('tess', { secondFactorRequired: true });
      const { browser, query, page: changePage } = await signIn('tess', TEMPORARY);
      assert.equal(changePage.status, 200, changePage.html);
      assertPageHeaders(changePage);
      assert.match(changePage.html, /Choose your own password/);
      assert.match(changePage.html, /name="method" value="change_password"/);

      // Pending: /authorize shows the same step, never the consent or a code.
      const again = await browser.authorize(query);
      assert.match(again.html, /Choose your own password/);
      assert.doesNotMatch(again.html, /action="\/consent"/);

      const same = await step(browser, changePage, { method: 'change_password', password: TEMPORARY });
      assert.equal(same.status, 422, same.html);
      assert.match(same.html, /other than the one you were given/);
      const common = await step(browser, changePage, { method: 'change_password', password: 'password1' });
      assert.equal(common.status, 422);
      assert.match(common.html, /common, was leaked/);
      // Skipping ahead: the terms are not offered before the password is replaced.
      const skipped = await step(browser, changePage, {
        method: 'accept_terms',
        decision: 'accept',
        version: TERMS.version,
      });
      assert.notEqual(skipped.status, 303);
      assert.match(skipped.html, /Choose your own password/);

      const enrolPage = await step(browser, changePage, { method: 'change_password', password: CHOSEN });
      assert.equal(enrolPage.status, 200, enrolPage.html);
      assert.match(enrolPage.html, /Set up two-step verification/);
      const user = await server.context.store.findUser('tess');
      assert.equal(user?.passwordTemporary, undefined, 'no longer temporary');

      const secret = enrolmentSecret(enrolPage.html);
      const codesPage = await step(browser, enrolPage, {
        method: 'otp_enrolment',
        enrolment: hiddenField(enrolPage.html, 'enrolment'),
        code: totpCode(secret, server.clock.now()),
      });
      assert.equal(codesPage.status, 200, codesPage.html);
      assert.equal(recoveryCodes(codesPage.html).length, 10, 'the recovery codes, shown once before the terms');
      const continued = /href="([^"]+)"[^>]*>I saved them/
        .exec(codesPage.html)?.[1]
        ?.replaceAll('&amp;', '&')
        .replaceAll('&#38;', '&');
      assert.ok(continued);
      const termsPage = await browser.get(continued.replace(/^https?:\/\/[^/]+/, ''));
      assert.equal(termsPage.status, 200, termsPage.html);
      assert.match(termsPage.html, /Terms of service/);
      assert.match(termsPage.html, /href="https:\/\/example\.com\/terms"/);
      assert.match(termsPage.html, /version 2026-11/);

      const accepted = await step(browser, termsPage, {
        method: 'accept_terms',
        decision: 'accept',
        version: TERMS.version,
      });
      assert.equal(accepted.status, 303, accepted.html);
      let page = await browser.get(accepted.location as string);
      if (page.status === 200) page = await browser.consent(page, 'allow');
      assert.ok(callbackParams(page.location).code, page.location);
      const after = await server.context.store.findUser('tess');
      assert.deepEqual(after?.termsAccepted, { version: TERMS.version, at: server.clock.now() });
      const events = await server.context.store.listAuditEvents({ limit: 1000 });
      const mine = events.filter((e) => e.subject === after?.subject).map((e) => `${e.event}/${e.reason ?? ''}`);
      assert.ok(mine.includes('user_password_set/temporary'), mine.join());
      assert.ok(mine.includes('user_password_set/temporary password replaced at sign-in'), mine.join());
      assert.ok(mine.includes('terms_accepted/version 2026-11'), mine.join());

      // The new password signs in; the terms accepted are not asked again.
      const { page: straight } = await signIn('tess', CHOSEN);
      assert.match(straight.html, /Two-step verification/);
    });

    it('Decline ends the sign-in with access_denied to the redirect URI (RFC 6749 §4.1.2.1), audited; a new version asks again', async () => {
      await addUser(server.context.store, 'dora', PASSWORD, server.clock.now(), {});
      const { browser, query, page: termsPage } = await signIn('dora', PASSWORD);
      assert.equal(termsPage.status, 200, termsPage.html);
      assert.match(termsPage.html, /Terms of service/);
      const declined = await step(browser, termsPage, {
        method: 'accept_terms',
        decision: 'decline',
        version: TERMS.version,
      });
      assert.equal(declined.status, 303, declined.html);
      const params = callbackParams(declined.location);
      assert.equal(params.error, 'access_denied');
      assert.equal(params.state, 'state-123');
      const dora = await server.context.store.findUser('dora');
      assert.equal(dora?.termsAccepted, undefined);
      const events = await server.context.store.listAuditEvents({ event: 'terms_declined', limit: 10 });
      assert.ok(events.some((e) => e.subject === dora?.subject && e.reason === 'version 2026-11'));
      // The sign-in ended: the same browser is asked for the password again.
      const start = await browser.authorize(query);
      assert.match(start.html, /name="password"/);

      // An acceptance of an older version: asked again.
      await server.context.store.recordTermsAcceptance('dora', '2025-01', server.clock.now());
      const { page: asked } = await signIn('dora', PASSWORD);
      assert.match(asked.html, /version 2026-11/);
    });

    it('Decline on the device page denies the device authorization (RFC 8628 §3.5 access_denied); on the account page, the sign-in starts again', async () => {
      const tv = await server.addClient({
        id: `tv-${dialect}`,
        name: 'Living Room TV',
        public: true,
        grantTypes: [DEVICE_GRANT],
      });
      await addUser(server.context.store, 'dev', PASSWORD, server.clock.now(), {});
      const started = (await (await server.post('/device_authorization', {}, { as: tv })).json()) as {
        device_code: string;
        user_code: string;
      };
      const browser = new PageBrowser(server);
      const form = await browser.get('/device');
      const signIn = await browser.post('/device', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        user_code: started.user_code,
      });
      const termsPage = await browser.post('/device/login', {
        csrf_token: hiddenField(signIn.html, 'csrf_token'),
        request: hiddenField(signIn.html, 'request'),
        username: 'dev',
        password: PASSWORD,
      });
      assert.equal(termsPage.status, 200, termsPage.html);
      assert.match(termsPage.html, /Terms of service/);
      assert.match(termsPage.html, /action="\/device\/login"/);
      const declined = await browser.post('/device/login', {
        csrf_token: hiddenField(termsPage.html, 'csrf_token'),
        request: hiddenField(termsPage.html, 'request'),
        method: 'accept_terms',
        decision: 'decline',
        version: TERMS.version,
      });
      assert.equal(declined.status, 200, declined.html);
      assert.match(declined.html, /Access denied/);
      const polled = await server.post(
        '/token',
        { grant_type: DEVICE_GRANT, device_code: started.device_code },
        { as: tv },
      );
      assert.equal(polled.status, 400);
      assert.equal(((await polled.json()) as { error: string }).error, 'access_denied');

      const account = new PageBrowser(server);
      const accountForm = await account.get('/account');
      const accountTerms = await account.post('/account/login', {
        csrf_token: hiddenField(accountForm.html, 'csrf_token'),
        username: 'dev',
        password: PASSWORD,
      });
      assert.equal(accountTerms.status, 200, accountTerms.html);
      assert.match(accountTerms.html, /Terms of service/);
      const back = await account.post('/account/login', {
        csrf_token: hiddenField(accountTerms.html, 'csrf_token'),
        method: 'accept_terms',
        decision: 'decline',
        version: TERMS.version,
      });
      assert.equal(back.status, 303, back.html);
      const again = await account.get('/account');
      assert.match(again.html, /name="password"/, 'signed out: the sign-in form again');
    });

    it('hostile input: overlong, NUL, markup and a forged version give a clear page, never a 5xx', async () => {
      await temporaryUser('hana');
      const { browser, page } = await signIn('hana', TEMPORARY);
      assert.match(page.html, /Choose your own password/);
      for (const password of ['x'.repeat(5000), 'ab\u0000cd', '<b>', '"><s>', '\r\n\r\n', '']) {
        const answer = await step(browser, page, { method: 'change_password', password });
        assert.ok(answer.status < 500, `${answer.status} for ${JSON.stringify(password.slice(0, 20))}`);
        assert.match(answer.html, /Choose your own password/);
        assert.doesNotMatch(answer.html, /"><s>/);
      }
      const done = await step(browser, page, { method: 'change_password', password: CHOSEN });
      assert.equal(done.status, 200, done.html);
      assert.match(done.html, /Terms of service/);
      for (const version of ['2025-01', 'x'.repeat(5000), '2026-11\u0000', '<b>2026-11</b>']) {
        const answer = await step(browser, done, { method: 'accept_terms', decision: 'accept', version });
        assert.equal(answer.status, 409, `${answer.status} for ${JSON.stringify(version.slice(0, 20))}`);
        assert.match(answer.html, /version 2026-11/);
      }
      const odd = await step(browser, done, {
        method: 'accept_terms',
        decision: 'x'.repeat(5000),
        version: TERMS.version,
      });
      assert.ok(odd.status < 500);
      assert.equal((await server.context.store.findUser('hana'))?.termsAccepted, undefined, 'nothing accepted');

      // A required action posted by a browser with no sign-in under way: refused, never a 5xx.
      const stranger = new PageBrowser(server);
      const { challenge } = pkce();
      const form = await stranger.authorize(authorizationQuery(client.id, challenge, { scope: 'openid' }));
      for (const method of ['change_password', 'accept_terms']) {
        const answer = await step(stranger, form, {
          method,
          password: CHOSEN,
          decision: 'decline',
          version: TERMS.version,
        });
        assert.ok(answer.status >= 400 && answer.status < 500, `${method}: ${answer.status}`);
      }
    });

    /** Runs the CLI on the server's database; the JSON it printed, after checking it exited 0. */
    async function cli(input: string, ...argv: string[]): Promise<Record<string, unknown>> {
      const out: string[] = [];
      const env = { DATABASE_URL: server.databaseUrl, ISSUER: 'http://gatehouse.test' };
      const code = await runCli(argv, env, { out: (t) => out.push(t), err: () => {}, readInput: async () => input });
      assert.equal(code, 0, out.join('\n'));
      return JSON.parse(out.join('\n')) as Record<string, unknown>;
    }

    it("operators: `users passwd --temporary` and the admin API's PUT …/password {temporary: true} set a temporary password, audited; `users require-second-factor` [--off]", async () => {
      await addUser(server.context.store, 'ada', PASSWORD, server.clock.now(), {});
      const set = await cli(TEMPORARY, 'users', 'passwd', 'ada', '--password-stdin', '--temporary');
      assert.equal(set.temporary, true);
      assert.equal((await server.context.store.findUser('ada'))?.passwordTemporary, true);
      const listed = (await cli('', 'users', 'list')) as unknown as Record<string, unknown>[];
      assert.equal(listed.find((u) => u.username === 'ada')?.password_temporary, true);
      // Without --temporary, a password set by an operator is not temporary.
      await cli(TEMPORARY, 'users', 'passwd', 'ada', '--password-stdin');
      assert.equal((await server.context.store.findUser('ada'))?.passwordTemporary, undefined);

      const ops = await cli('', 'clients', 'add', '--id', 'ops', '--name', 'ops', '--admin');
      const token = await server.post(
        '/token',
        { grant_type: 'client_credentials' },
        { as: { id: 'ops', secret: ops.client_secret as string } },
      );
      const admin = api(server, ((await token.json()) as { access_token: string }).access_token);
      const put = await admin.put('/admin/v1/users/ada/password', { password: TEMPORARY, temporary: true });
      assert.equal(put.status, 204, put.text);
      const user = await admin.get('/admin/v1/users/ada');
      assert.equal(user.body.password_temporary, true);
      assert.equal(
        (await admin.put('/admin/v1/users/ada/password', { password: TEMPORARY, temporary: 'yes' })).status,
        422,
      );
      const events = await server.context.store.listAuditEvents({ event: 'user_password_set', limit: 100 });
      assert.ok(events.some((e) => e.actor === 'ops' && e.reason === 'temporary'));
      const { page } = await signIn('ada', TEMPORARY);
      assert.match(page.html, /Choose your own password/);

      const required = await cli('', 'users', 'require-second-factor', 'ada');
      assert.equal(required.second_factor_required, true);
      const off = await cli('', 'users', 'require-second-factor', 'ada', '--off');
      assert.equal(off.second_factor_required, undefined);
      const set2 = await server.context.store.listAuditEvents({ event: 'second_factor_requirement_set', limit: 10 });
      assert.deepEqual(set2.map((e) => `${e.actor}/${e.reason}`).sort(), ['cli/not required', 'cli/required']);
    });
    it("the admin API's PUT …/second-factor-requirement requires a second factor of an existing user and stops requiring it, audited as the CLI's", async () => {
      await addUser(server.context.store, 'grace', PASSWORD, server.clock.now(), {});
      const ops = await cli('', 'clients', 'add', '--id', 'ops2', '--name', 'ops2', '--admin');
      const token = await server.post(
        '/token',
        { grant_type: 'client_credentials' },
        { as: { id: 'ops2', secret: ops.client_secret as string } },
      );
      const admin = api(server, ((await token.json()) as { access_token: string }).access_token);
      const path = '/admin/v1/users/grace/second-factor-requirement';

      const on = await admin.put(path, { required: true });
      assert.equal(on.status, 200, on.text);
      assert.equal(on.body.username, 'grace');
      assert.equal(on.body.second_factor_required, true);
      assert.equal((await admin.get('/admin/v1/users/grace')).body.second_factor_required, true);
      // The next sign-in sets up an authenticator app (the client's policy is optional).
      const required = await signIn('grace', PASSWORD);
      assert.match(required.page.html, /Set up two-step verification/);

      const off = await admin.put(path, { required: false });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.body.second_factor_required, undefined);
      const free = await signIn('grace', PASSWORD);
      assert.doesNotMatch(free.page.html, /Set up two-step verification/);
      assert.match(free.page.html, /Terms of service/);

      const events = await server.context.store.listAuditEvents({ event: 'second_factor_requirement_set', limit: 100 });
      const subject = (await server.context.store.findUser('grace'))?.subject;
      assert.deepEqual(
        events
          .filter((e) => e.subject === subject)
          .map((e) => `${e.actor}/${e.reason}`)
          .sort(),
        ['ops2/not required', 'ops2/required'],
      );

      // Refused: an unknown user, a body that is not { required: boolean }.
      const unknown = await admin.put('/admin/v1/users/nobody/second-factor-requirement', { required: true });
      assert.equal(unknown.status, 404, unknown.text);
      for (const body of [{}, { required: null }]) {
        const missing = await admin.put(path, body);
        assert.equal(missing.status, 400, `${JSON.stringify(body)}: ${missing.text}`);
        assert.equal(missing.body.type, '/problems/missing-required-field');
      }
      const invalid = await admin.put(path, { required: 'yes' });
      assert.equal(invalid.status, 422, invalid.text);
      assert.equal(invalid.body.type, '/problems/invalid-field-value');
      const extra = await admin.put(path, { required: true, reason: 'x' });
      assert.equal(extra.status, 422, extra.text);
      assert.notEqual((await server.context.store.findUser('grace'))?.secondFactorRequired, true);
    });
  });
