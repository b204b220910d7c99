import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { addUser } from '../src/users/users.js';
import { signedInToAccount, testMailSettings } from './_account-mail.js';
import { api, assertProblem, type Api } from './_api.js';
import { assertPageHeaders, hiddenField, PageBrowser, type PageAnswer } from './_authorize.js';
import { runCliCaptured } from './_cli.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { TestSmtpServer, type ArrivedMail } from './_smtp.js';
import { SoftAuthenticator } from './_webauthn.js';
import { until } from './_until.js';

const ADMIN = '/admin/v1';
const PASSWORD = 'plum tractor velvet harbour';
const EXISTING_PASSWORD = 'correct horse battery staple';

/** The link's secret in an invitation mail, from its text body. */
function linkToken(mail: ArrivedMail | undefined): string {
  const match = /\/invitation\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');
  assert.ok(match, `an invitation link in ${mail?.text}`);
  return match[1] as string;
}

/** Opens an invitation link and posts its form. */
async function accept(browser: PageBrowser, token: string, fields: Record<string, string>): Promise<PageAnswer> {
  const form = await browser.get(`/invitation?token=${token}`);
  assert.equal(form.status, 200, form.html);
  return browser.post('/invitation', {
    csrf_token: hiddenField(form.html, 'csrf_token'),
    token: hiddenField(form.html, 'token'),
    ...fields,
  });
}

/** The WebAuthn options a page rendered in its passkey form's `data-options`. */
function optionsIn(html: string): { challenge: string; user: { id: string; name: string } } {
  const match = /data-options="([^"]*)"/.exec(html);
  assert.ok(match, 'the page has a passkey form');
  return JSON.parse((match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))));
}

for (const dialect of DIALECTS)
  describe(`invitations [${dialect}]`, () => {
    const smtp = new TestSmtpServer();
    let server: TestServer;
    let admin: Api;
    let env: NodeJS.ProcessEnv;

    async function adminToken(id: string): Promise<string> {
      const out: string[] = [];
      const argv = ['clients', 'add', '--id', id, '--name', id, '--admin'];
      assert.equal(await runCli(argv, env, { out: (t) => out.push(t), err: () => {} }), 0);
      const client: TestClient = {
        id,
        secret: (JSON.parse(out.join('\n')) as { client_secret: string }).client_secret,
      };
      const response = await server.post('/token', { grant_type: 'client_credentials' }, { as: client });
      return ((await response.json()) as { access_token: string }).access_token;
    }

    /** Waits for the `count` mails after the first `seen` and returns them. */
    async function newMails(seen: number, count: number): Promise<ArrivedMail[]> {
      await smtp.waitFor(seen + count);
      return smtp.arrived.slice(seen, seen + count);
    }

    before(async () => {
      await smtp.start();
      server = await startTestServer({ dialect, mail: testMailSettings(smtp) });
      env = { DATABASE_URL: server.databaseUrl, ISSUER };
      admin = api(server, await adminToken('ops'));
      await addUser(server.context.store, 'erin', EXISTING_PASSWORD, server.clock.now(), {
        email: 'erin@example.com',
        email_verified: true,
      });
      assert.equal((await admin.post(`${ADMIN}/groups`, { name: 'staff' })).status, 201);
      const org = await admin.post(`${ADMIN}/organizations`, { slug: 'acme', name: 'Acme', roles: ['viewer'] });
      assert.equal(org.status, 201, org.text);
    });
    after(async () => {
      await server?.close();
      await smtp.stop();
    });

    it('the admin API sends an invitation; the link sets a password, verifies the address, applies the groups and organization, and the account signs in', async () => {
      const seen = smtp.arrived.length;
      const sent = await admin.post(`${ADMIN}/invitations`, {
        email: 'Frank@Example.com',
        groups: ['staff'],
        organization: 'acme',
        org_roles: ['viewer'],
      });
      assert.equal(sent.status, 201, sent.text);
      assert.equal(sent.body.email, 'Frank@Example.com');
      assert.match(sent.body.id, /^[0-9a-f]{64}$/);
      const week = Date.parse(sent.body.expires_at) - Date.parse(sent.body.created_at);
      assert.equal(week, 7 * 24 * 3600 * 1000);
      const listed = await admin.get(`${ADMIN}/invitations`);
      assert.ok(listed.body.items.some((i: { id: string }) => i.id === sent.body.id));
      const [mail] = await newMails(seen, 1);
      assert.equal(mail?.to.toLowerCase(), 'frank@example.com');
      assert.equal(mail?.subject, 'You are invited');
      assert.match(mail?.text ?? '', /invited to Acme/);
      assert.doesNotMatch(mail?.text ?? '', /password:/i, 'the mail carries no password');
      const token = linkToken(mail);

      const browser = new PageBrowser(server);
      const form = await browser.get(`/invitation?token=${token}`);
      assert.equal(form.status, 200);
      assertPageHeaders(form);
      assert.equal(/name="username" type="text" value="([^"]*)"/.exec(form.html)?.[1], 'frank@example.com');
      const weak = await accept(browser, token, { username: 'frank', password: 'password1' });
      assert.equal(weak.status, 422);
      assert.match(weak.html, /Choose another password/);
      const done = await accept(browser, token, { username: 'frank', password: PASSWORD });
      assert.equal(done.status, 200, done.html);
      assert.match(done.html, /Your account is ready/);

      const user = await server.context.store.findUser('frank');
      assert.equal(user?.claims.email, 'Frank@Example.com');
      assert.equal(user?.claims.email_verified, true);
      const staff = await admin.get(`${ADMIN}/groups/staff/members`);
      assert.deepEqual(staff.body.members, ['frank']);
      const members = await admin.get(`${ADMIN}/organizations/acme/members`);
      assert.ok(JSON.stringify(members.body).includes('"frank"'), members.text);
      assert.ok(JSON.stringify(members.body).includes('"viewer"'), members.text);
      await signedInToAccount(server, 'frank', PASSWORD);

      const used = await browser.get(`/invitation?token=${token}`);
      assert.equal(used.status, 400);
      assert.match(used.html, /This invitation no longer works/);
      const after = await admin.get(`${ADMIN}/invitations`);
      assert.ok(!after.body.items.some((i: { id: string }) => i.id === sent.body.id), 'used: no longer open');
      const events = (await server.context.store.listAuditEvents({ limit: 50 })).map((e) => e.event);
      for (const event of ['invitation_sent', 'user_created', 'invitation_accepted'] as const)
        assert.ok(events.includes(event), event);
    });

    it('an address that has an account gets the same answer, and a "sign in and accept" mail whose link adds the membership once signed in as that account', async () => {
      const seen = smtp.arrived.length;
      const existing = await admin.post(`${ADMIN}/invitations`, { email: 'erin@example.com', groups: ['staff'] });
      const unknown = await admin.post(`${ADMIN}/invitations`, { email: 'nobody@example.com', groups: ['staff'] });
      assert.equal(existing.status, unknown.status);
      assert.deepEqual(Object.keys(existing.body).sort(), Object.keys(unknown.body).sort());
      const mails = await newMails(seen, 2);
      const mail = mails.find((m) => m.to === 'erin@example.com');
      assert.match(mail?.text ?? '', /with your account erin/);
      const token = linkToken(mail);

      const anonymous = await new PageBrowser(server).get(`/invitation?token=${token}`);
      assert.equal(anonymous.status, 200);
      assert.match(anonymous.html, /Sign in as <strong[^>]*>erin<\/strong> first/);
      assert.doesNotMatch(anonymous.html, /action="[^"]*\/invitation\/accept"/);

      const { browser } = await signedInToAccount(server, 'erin', EXISTING_PASSWORD);
      const page = await browser.get(`/invitation?token=${token}`);
      const joined = await browser.post('/invitation/accept', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        token: hiddenField(page.html, 'token'),
      });
      assert.equal(joined.status, 200, joined.html);
      assert.match(joined.html, /Invitation accepted/);
      const staff = await admin.get(`${ADMIN}/groups/staff/members`);
      assert.ok(staff.body.members.includes('erin'));
      const again = await browser.post('/invitation/accept', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        token: hiddenField(page.html, 'token'),
      });
      assert.equal(again.status, 400, 'used once');
    });

    it('a revoked invitation stops working at once; revoking it again is 404', async () => {
      const seen = smtp.arrived.length;
      const sent = await admin.post(`${ADMIN}/invitations`, { email: 'gina@example.com', ttl_seconds: 3600 });
      assert.equal(sent.status, 201);
      const token = linkToken((await newMails(seen, 1))[0]);
      assert.equal((await admin.delete(`${ADMIN}/invitations/${sent.body.id}`)).status, 204);
      assertProblem(await admin.delete(`${ADMIN}/invitations/${sent.body.id}`), 404, 'not-found');
      const page = await new PageBrowser(server).get(`/invitation?token=${token}`);
      assert.equal(page.status, 400);
      const events = await server.context.store.listAuditEvents({ event: 'invitation_revoked', limit: 5 });
      assert.equal(events.at(-1)?.actor, 'ops');
    });

    it('a passkey instead of a password: the account is made with it and no password, the address verified, and the passkey signs in; a credential that does not verify changes nothing', async () => {
      const seen = smtp.arrived.length;
      assert.equal((await admin.post(`${ADMIN}/invitations`, { email: 'hugo@example.com' })).status, 201);
      const token = linkToken((await newMails(seen, 1))[0]);
      const browser = new PageBrowser(server);
      const form = await browser.get(`/invitation?token=${token}`);
      assert.match(form.html, /id="passkey-form"[^>]*data-copy="username"/);
      assert.match(form.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      const options = optionsIn(form.html);
      assert.equal(options.user.name, 'hugo@example.com');
      const key = new SoftAuthenticator('gatehouse.test', 'http://gatehouse.test');
      const post = (credential: string) =>
        browser.post('/invitation', {
          csrf_token: hiddenField(form.html, 'csrf_token'),
          token,
          username: 'hugo',
          credential,
        });
      // A credential for another origin, and garbage: a clear page, nothing made, the link still works.
      const elsewhere = new SoftAuthenticator('gatehouse.test', 'http://evil.test').create(options);
      for (const credential of [elsewhere, '{"id":"x"}', 'x'.repeat(5000)]) {
        const refused = await post(credential);
        assert.ok([400, 401, 403, 422].includes(refused.status), `${refused.status} ${refused.html.slice(0, 200)}`);
        assert.equal(await server.context.store.findUser('hugo'), undefined);
      }
      const again = await browser.get(`/invitation?token=${token}`);
      assert.equal(again.status, 200);
      const fresh = optionsIn(again.html);
      const made = await browser.post('/invitation', {
        csrf_token: hiddenField(again.html, 'csrf_token'),
        token,
        username: 'hugo',
        credential: key.create(fresh),
      });
      assert.equal(made.status, 200, made.html);
      assert.match(made.html, /made with your passkey/);
      const user = await server.context.store.findUser('hugo');
      assert.equal(user?.claims.email_verified, true);
      assert.equal(user?.claims.email, 'hugo@example.com');
      assert.equal((await server.context.store.listPasskeys(user?.subject ?? '')).length, 1);
      const events = await server.context.store.listAuditEvents({ since: 0, limit: 1000 });
      const mine = events.filter((e) => e.subject === user?.subject).map((e) => e.event);
      assert.deepEqual(mine.slice(-3), ['user_created', 'passkey_enrolled', 'invitation_accepted']);
      // No password signs in to it; the passkey does.
      const signIn = new PageBrowser(server);
      const account = await signIn.get('/account');
      const withPassword = await signIn.post('/account/login', {
        csrf_token: hiddenField(account.html, 'csrf_token'),
        username: 'hugo',
        password: 'NO_PASSWORD',
      });
      assert.notEqual(withPassword.status, 303);
      const passkeyBrowser = new PageBrowser(server);
      const passkeyForm = await passkeyBrowser.get('/account');
      const request = optionsIn(passkeyForm.html);
      const withPasskey = await passkeyBrowser.post('/account/login', {
        csrf_token: hiddenField(passkeyForm.html, 'csrf_token'),
        method: 'passkey_sign_in',
        credential: key.get(request),
      });
      assert.equal(withPasskey.status, 303, withPasskey.html);
      assert.match((await passkeyBrowser.get('/account')).html, /<h1>Your account<\/h1>/);
      // The link worked once.
      assert.equal((await browser.get(`/invitation?token=${token}`)).status, 400);
    });

    it('50 concurrent uses of one invitation link: one account is made, the other 49 are refused', async () => {
      const seen = smtp.arrived.length;
      assert.equal((await admin.post(`${ADMIN}/invitations`, { email: 'race@example.com' })).status, 201);
      const token = linkToken((await newMails(seen, 1))[0]);
      const browsers = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const browser = new PageBrowser(server);
          const form = await browser.get(`/invitation?token=${token}`);
          return { browser, csrf: hiddenField(form.html, 'csrf_token') };
        }),
      );
      const answers = await Promise.all(
        browsers.map(({ browser, csrf }, i) =>
          browser.post('/invitation', { csrf_token: csrf, token, username: `racer-${i}`, password: PASSWORD }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(' '));
      assert.equal(statuses.filter((s) => s === 400).length, 49, statuses.join(' '));
      const made = (await server.context.store.listUsers()).filter((u) => u.username.startsWith('racer-'));
      assert.equal(made.length, 1);
    });

    it('hostile input: bad addresses, unknown groups and roles are refused with the catalog problem, never a 5xx and never a mail', async () => {
      const seen = smtp.arrived.length;
      for (const email of [
        'a@example.com\r\nBcc: x@example.com',
        'a\u0000@example.com',
        '"Eve" <eve@example.com>',
        `${'a'.repeat(250)}@example.com`,
        'no-at-sign',
      ]) {
        const answer = await admin.post(`${ADMIN}/invitations`, { email });
        assert.ok(answer.status === 422, `${JSON.stringify(email)}: ${answer.status} ${answer.text}`);
      }
      assertProblem(
        await admin.post(`${ADMIN}/invitations`, { email: 'h@example.com', groups: ['nope'] }),
        404,
        'not-found',
      );
      const role = await admin.post(`${ADMIN}/invitations`, {
        email: 'h@example.com',
        organization: 'acme',
        org_roles: ['owner'],
      });
      assertProblem(role, 422, 'invalid-operator-input');
      const orphan = await admin.post(`${ADMIN}/invitations`, { email: 'h@example.com', org_roles: ['viewer'] });
      assertProblem(orphan, 422, 'invalid-operator-input');
      assert.equal((await admin.post(`${ADMIN}/invitations`, { email: 'h@example.com', ttl_seconds: 1 })).status, 422);
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      assert.equal(smtp.arrived.length, seen, 'no mail for a refused invitation');

      // The form: markup, NUL, overlong and a taken username give a clear page, never a 5xx.
      const sent = await admin.post(`${ADMIN}/invitations`, { email: 'hostile@example.com' });
      assert.equal(sent.status, 201);
      const token = linkToken((await newMails(seen, 1))[0]);
      const browser = new PageBrowser(server);
      for (const username of ['<script>alert(1)</script>', 'a\u0000b', 'x'.repeat(5000), 'erin']) {
        const answer = await accept(browser, token, { username, password: PASSWORD });
        assert.ok(answer.status === 422 || answer.status === 409, `${username.slice(0, 20)}: ${answer.status}`);
        assert.doesNotMatch(answer.html, /<script>alert/);
      }
      const long = await accept(browser, token, { username: 'hostile', password: 'p'.repeat(2000) });
      assert.equal(long.status, 422);
      for (const forged of ['x', 'A'.repeat(43), '../../etc/passwd', '%00'])
        assert.equal((await browser.get(`/invitation?token=${encodeURIComponent(forged)}`)).status, 400);
      const noCsrf = await browser.post('/invitation', { token, username: 'hostile', password: PASSWORD });
      assert.ok(noCsrf.status >= 400 && noCsrf.status < 500);
    });

    it('gatehouse users invite, invitations and revoke-invitation do what the admin API does', async () => {
      const seen = smtp.arrived.length;
      const invited = await runCliCaptured(
        ['users', 'invite', '--email', 'cli@example.com', '--group', 'staff', '--organization', 'acme', '--ttl', '2d'],
        env,
      );
      assert.equal(invited.code, 0, invited.err);
      const view = JSON.parse(invited.out) as { id: string; groups: string[]; expires_at: string; created_at: string };
      assert.deepEqual(view.groups, ['staff']);
      assert.equal(Date.parse(view.expires_at) - Date.parse(view.created_at), 2 * 86400 * 1000);
      const [mail] = await newMails(seen, 1);
      assert.equal(mail?.to, 'cli@example.com');
      const listed = await runCliCaptured(['users', 'invitations'], env);
      assert.ok((JSON.parse(listed.out) as { id: string }[]).some((i) => i.id === view.id));
      const revoked = await runCliCaptured(['users', 'revoke-invitation', view.id], env);
      assert.equal(revoked.code, 0, revoked.err);
      assert.equal((await new PageBrowser(server).get(`/invitation?token=${linkToken(mail)}`)).status, 400);
      const refused = await runCliCaptured(['users', 'invite', '--email', 'x@example.com', '--group', 'nope'], env);
      assert.notEqual(refused.code, 0);
      assert.match(refused.err, /no group 'nope'/);
      const events = await server.context.store.listAuditEvents({ event: 'invitation_sent', limit: 50 });
      assert.equal(events.at(-1)?.actor, 'cli');
    });
  });

describe('the admin API document declares the invitations', () => {
  it('POST, GET /invitations and DELETE /invitations/{invitation}, for the admin role', async () => {
    const server = await startTestServer();
    try {
      const document = (await (await fetch(`${server.url}${ADMIN}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId?: string; 'x-required-roles'?: string[] }>>;
      };
      assert.equal(document.paths['/invitations']?.post?.operationId, 'createInvitation');
      assert.equal(document.paths['/invitations']?.get?.operationId, 'listInvitations');
      assert.equal(document.paths['/invitations/{invitation}']?.delete?.operationId, 'revokeInvitation');
      assert.deepEqual(document.paths['/invitations']?.post?.['x-required-roles'], ['admin']);
    } finally {
      await server.close();
    }
  });
});
