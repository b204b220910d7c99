import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { per } from '../src/abuse/rate-policies.js';
import { EMAIL_VERIFICATION_TTL } from '../src/accounts/email-verification.js';
import { addUser } from '../src/users/users.js';
import {
  addMailApp,
  addUserWithAddress,
  mailedLinkAndCode,
  signedInToAccount,
  startMailedServer,
  userinfoOf,
  type MailedServer,
} from './_account-mail.js';
import { assertPageHeaders, hiddenField, PageBrowser, PASSWORD, type PageAnswer } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import type { TestSmtpServer } from './_smtp.js';
import { until } from './_until.js';

/** The account page's form of a new address. */
function askForChange(browser: PageBrowser, account: PageAnswer, email: string): Promise<PageAnswer> {
  return browser.post('/account/email', { csrf_token: hiddenField(account.html, 'csrf_token'), email });
}

/** The mails that arrived after `seen`, once the outbox has none waiting and `count` arrived. */
async function mailsAfter(server: TestServer, smtp: TestSmtpServer, seen: number, count: number) {
  await smtp.waitFor(seen + count);
  await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
  return smtp.arrived.slice(seen);
}

for (const dialect of DIALECTS)
  describe(`changing the address on the account page [${dialect}]`, () => {
    let mailed: MailedServer;
    let server: TestServer;
    let smtp: TestSmtpServer;
    let client: TestClient;
    let users = 0;

    before(async () => {
      mailed = await startMailedServer({ dialect });
      ({ server, smtp } = mailed);
      client = await addMailApp(server);
    });
    after(() => mailed?.close());

    async function newUser(): Promise<string> {
      const username = `changing-${++users}`;
      await addUserWithAddress(server, username, true);
      return username;
    }

    async function emailClaims(username: string): Promise<{ email?: unknown; email_verified?: unknown }> {
      const { email, email_verified } = await userinfoOf(server, client, username);
      return { email, email_verified };
    }

    it('the new address is mailed a link and a code, the old one is told; nothing changes until the link is used, once', async () => {
      const username = await newUser();
      const { browser, account } = await signedInToAccount(server, username);
      assert.match(account.html, /name="email" type="email"/);
      const seen = smtp.arrived.length;
      const asked = await askForChange(browser, account, '  New.Address@Example.org ');
      assert.equal(asked.status, 303, asked.html);
      assert.equal(asked.location, '/account?done=email_change_sent');
      const mails = await mailsAfter(server, smtp, seen, 2);
      const old = mails.find((m) => m.to === `${username}@example.com`);
      assert.equal(old?.subject, 'Your e-mail address is being changed');
      assert.match(
        old?.text ?? '',
        new RegExp(`account ${username} asked to change its address to new\\.address@example\\.org`),
      );
      const fresh = mails.find((m) => m.to === 'new.address@example.org');
      assert.equal(fresh?.subject, 'Confirm your new e-mail address');
      const { token } = mailedLinkAndCode(fresh);

      // Until then, tokens and userinfo keep the old address, verified.
      assert.deepEqual(await emailClaims(username), { email: `${username}@example.com`, email_verified: true });
      const anywhere = new PageBrowser(server);
      const page = await anywhere.get(`/email-verification?token=${token}`);
      assert.equal(page.status, 200);
      assertPageHeaders(page);
      assert.match(page.html, /new\.address@example\.org/);
      assert.deepEqual(await emailClaims(username), { email: `${username}@example.com`, email_verified: true });
      const done = await anywhere.post('/email-verification', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        token,
      });
      assert.equal(done.status, 200, done.html);
      assert.match(done.html, /Address verified/);
      assert.deepEqual(await emailClaims(username), { email: 'new.address@example.org', email_verified: true });
      assert.equal((await anywhere.get(`/email-verification?token=${token}`)).status, 400);

      const subject = (await server.context.store.findUser(username))?.subject;
      const requested = await server.context.store.listAuditEvents({ event: 'email_change_requested', limit: 100 });
      assert.equal(requested.at(-1)?.subject, subject);
      assert.equal(requested.at(-1)?.reason, null);
      const changed = await server.context.store.listAuditEvents({ event: 'email_changed', limit: 100 });
      assert.equal(changed.at(-1)?.subject, subject);
      assert.equal(changed.at(-1)?.reason, 'link');
    });

    it('the code typed on the code page changes it instead; a newer change ends the older one; 24 hours at most', async () => {
      const username = await newUser();
      const { browser, account } = await signedInToAccount(server, username);
      let seen = smtp.arrived.length;
      await askForChange(browser, account, 'first@example.org');
      const first = mailedLinkAndCode(
        (await mailsAfter(server, smtp, seen, 2)).find((m) => m.to === 'first@example.org'),
      );
      seen = smtp.arrived.length;
      await askForChange(browser, account, 'second@example.org');
      const second = mailedLinkAndCode(
        (await mailsAfter(server, smtp, seen, 2)).find((m) => m.to === 'second@example.org'),
      );
      assert.equal((await new PageBrowser(server).get(`/email-verification?token=${first.token}`)).status, 400);

      const form = await browser.get('/email-verification/code');
      assert.equal(form.status, 200);
      assert.match(form.html, /newest verification mail/);
      const type = (code: string) =>
        browser.post('/email-verification/code', { csrf_token: hiddenField(form.html, 'csrf_token'), code });
      assert.equal((await type(first.code === second.code ? '000000' : first.code)).status, 401);
      const done = await type(second.code);
      assert.equal(done.status, 303);
      assert.equal(done.location, '/account?done=email_changed');
      assert.deepEqual(await emailClaims(username), { email: 'second@example.org', email_verified: true });
      assert.equal((await type(second.code)).status, 401);

      // A change's mail works for 24 hours.
      seen = smtp.arrived.length;
      const later = await browser.get('/account');
      await askForChange(browser, later, 'third@example.org');
      const third = mailedLinkAndCode(
        (await mailsAfter(server, smtp, seen, 2)).find((m) => m.to === 'third@example.org'),
      );
      server.clock.advance(EMAIL_VERIFICATION_TTL);
      assert.equal((await new PageBrowser(server).get(`/email-verification?token=${third.token}`)).status, 400);
      assert.equal((await emailClaims(username)).email, 'second@example.org');
    });

    it("an address another account has gets the same answer as a free one; that account's owner is told without the requester's name or address, and nothing changes", async () => {
      const owner = await newUser();
      const requester = await newUser();
      const other = await newUser();
      const answers = [];
      let seen = smtp.arrived.length;
      const taken = await signedInToAccount(server, requester);
      answers.push(await askForChange(taken.browser, taken.account, `${owner.toUpperCase()}@example.com`));
      const takenMails = await mailsAfter(server, smtp, seen, 2);
      seen = smtp.arrived.length;
      const free = await signedInToAccount(server, other);
      answers.push(await askForChange(free.browser, free.account, 'nobody-has-it@example.org'));
      const freeMails = await mailsAfter(server, smtp, seen, 2);

      assert.deepEqual(
        answers.map((a) => [a.status, a.location]),
        [
          [303, '/account?done=email_change_sent'],
          [303, '/account?done=email_change_sent'],
        ],
      );
      const page = async (b: PageBrowser, name: string) =>
        (await b.get('/account?done=email_change_sent')).html
          .replace(/name="csrf_token" value="[^"]*"|data-options="[^"]*"/g, '')
          .replaceAll(name, 'NAME');
      assert.equal(await page(taken.browser, requester), await page(free.browser, other));
      // The old address is told either way.
      assert.equal(takenMails.find((m) => m.to === `${requester}@example.com`)?.subject, freeMails[0]?.subject);
      const warning = takenMails.find((m) => m.to === `${owner}@example.com`);
      assert.equal(warning?.subject, 'Someone tried to use your address for another account');
      assert.match(warning?.text ?? '', new RegExp(`your account ${owner} already`));
      assert.doesNotMatch(`${warning?.text}${warning?.html}`, new RegExp(requester));
      assert.deepEqual(await emailClaims(requester), { email: `${requester}@example.com`, email_verified: true });
      assert.deepEqual(await emailClaims(owner), { email: `${owner}@example.com`, email_verified: true });
      const code = await taken.browser.get('/email-verification/code');
      assert.equal(code.status, 200);
      const requested = await server.context.store.listAuditEvents({ event: 'email_change_requested', limit: 100 });
      assert.deepEqual(
        requested.slice(-2).map((e) => e.reason),
        ['address already registered', null],
      );
    });

    it('hostile input (CRLF, NUL, overlong, a display name, a list, markup) gets a clear page, never a 5xx, and no mail', async () => {
      const username = await newUser();
      const { browser, account } = await signedInToAccount(server, username);
      const seen = smtp.arrived.length;
      const hostile = [
        `${username}-new@example.org\r\nBcc: mallory@evil.test`,
        `${username}-new@example.org\nSubject: hi`,
        `${username}\u0000@example.org`,
        `${'x'.repeat(300)}@example.org`,
        `${'x'.repeat(20_000)}@example.org`,
        `"${username}" <mallory@evil.test>`,
        `${username}-new@example.org, mallory@evil.test`,
        '<script>alert(1)</script>@example.org',
        '',
      ];
      for (const email of hostile) {
        const answer = await askForChange(browser, account, email);
        assert.ok([413, 422].includes(answer.status), `${answer.status} for ${JSON.stringify(email).slice(0, 60)}`);
        assertPageHeaders(answer);
        assert.doesNotMatch(answer.html, /<script>alert/);
        if (answer.status === 422) assert.match(answer.html, /This e-mail address cannot be used/);
      }
      assert.equal((await browser.postBody('/account/email', '')).status, 403);
      assert.equal((await emailClaims(username)).email, `${username}@example.com`);
      await until(async () => (await server.context.store.mailQueue()).waiting === 0, 'the outbox is empty');
      assert.equal(smtp.arrived.length, seen);
      const requested = await server.context.store.listAuditEvents({ event: 'email_change_requested', limit: 100 });
      const subject = (await server.context.store.findUser(username))?.subject;
      assert.equal(requested.filter((e) => e.subject === subject).length, 0);
    });
  });

describe('changing the address: the rules around it', () => {
  it('needs a sign-in of the last 10 minutes (fresh_sign_in_required, audited), and EMAIL_CHANGE_USER limits it per account', async () => {
    const mailed = await startMailedServer({ rateLimits: { email_change_user: per(2, 'h') } });
    const { server, smtp } = mailed;
    try {
      await addUser(server.context.store, 'ruth', PASSWORD, server.clock.now(), { email: 'ruth@example.com' });
      const { browser, account } = await signedInToAccount(server, 'ruth');
      assert.equal(
        (await askForChange(browser, account, 'ruth1@example.org')).location,
        '/account?done=email_change_sent',
      );
      assert.equal(
        (await askForChange(browser, account, 'ruth2@example.org')).location,
        '/account?done=email_change_sent',
      );
      const held = await askForChange(browser, account, 'ruth3@example.org');
      assert.equal(held.location, '/account?done=email_change_wait');
      assert.match((await browser.get(held.location ?? '')).html, /Too many address changes were asked for/);
      await mailsAfter(server, smtp, 0, 4);

      server.clock.advance(11 * 60);
      const stale = await browser.get('/account');
      assert.doesNotMatch(stale.html, /name="email" type="email"/);
      assert.match(stale.html, /Changing the address needs a sign-in made in the last 10 minutes/);
      const refused = await askForChange(browser, stale, 'ruth4@example.org');
      assert.equal(refused.status, 403);
      assert.match(refused.html, /<a href="\/problems\/fresh-sign-in-required">/);
      const events = await server.context.store.listAuditEvents({ event: 'sign_in_change_refused', limit: 10 });
      assert.equal(events.at(-1)?.reason, 'email_change');
    } finally {
      await mailed.close();
    }
  });

  it('EMAIL_VERIFICATION=off: no form, and the path is not found', async () => {
    const server = await startTestServer({ emailVerification: 'off' });
    try {
      await addUser(server.context.store, 'sam', PASSWORD, server.clock.now(), { email: 'sam@example.com' });
      const { browser, account } = await signedInToAccount(server, 'sam');
      assert.doesNotMatch(account.html, /name="email" type="email"/);
      assert.equal((await askForChange(browser, account, 'sam2@example.org')).status, 404);
    } finally {
      await server.close();
    }
  });
});
