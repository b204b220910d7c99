import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addTestUser,
  assertPageHeaders,
  authorizationQuery,
  CALLBACK,
  hiddenField,
  obtainCode,
  PageBrowser,
  pkce,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { assertOkJson } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

const DAY = 24 * 3600;

for (const dialect of DIALECTS) {
  describe(`the account page: one entry per application (${dialect})`, () => {
    let server: TestServer;
    let notes: TestClient;
    let photos: TestClient;
    let browser: PageBrowser;

    before(async () => {
      server = await startTestServer({ dialect });
      const registration = { redirectUris: [CALLBACK], scope: ['openid', 'contacts:read', 'contacts:write'] };
      notes = await server.addClient({ id: 'notes', name: 'Notes', ...registration });
      photos = await server.addClient({ id: 'photos', name: 'Photos', ...registration });
      await addTestUser(server, 'alice');
      await addTestUser(server, 'bob');
      browser = new PageBrowser(server);
    });
    after(() => server.close());

    /** Signs alice in to Notes through the pages (again when her session has ended): a new grant. */
    async function signInToNotes(scope: string): Promise<string> {
      const { verifier, challenge } = pkce();
      const { code } = await obtainCode(browser, authorizationQuery(notes.id, challenge, { scope, nonce: 'n' }));
      const tokens = await assertOkJson(
        await server.post(
          '/token',
          { grant_type: 'authorization_code', code: code as string, redirect_uri: CALLBACK, code_verifier: verifier },
          { as: notes },
        ),
      );
      return tokens.refresh_token as string;
    }

    const applicationsOn = (html: string): string[] =>
      [...html.matchAll(/<strong class="client-name" translate="no">([^<]*)<\/strong>/g)].map((m) => m[1] as string);

    let notesTokens: string[] = [];
    let photosToken: string;
    let bobsNotesToken: string;

    it('a user who signed in twice to one application sees it once, with every scope it holds and its latest sign-in', async () => {
      // 1_800_000_000 is 15 January 2027, 08:00 UTC.
      photosToken = (await server.issueGrant(photos, 'alice', ['contacts:read'])).refresh_token;
      const first = await signInToNotes('openid contacts:read');
      server.clock.advance(2 * DAY);
      // The session has ended by now: alice signs in again, and allows the new scope.
      const second = await signInToNotes('openid contacts:write');
      notesTokens = [first, second];
      bobsNotesToken = (await server.issueGrant(notes, 'bob', ['contacts:read'])).refresh_token;

      const page = await browser.get('/account');
      assert.equal(page.status, 200);
      assertPageHeaders(page);
      assert.deepEqual(applicationsOn(page.html), ['Notes', 'Photos'], 'one entry per client, latest used first');
      const notesEntry = page.html.slice(page.html.indexOf('Notes'), page.html.indexOf('Photos'));
      for (const words of [
        'Sign you in with your account',
        'See your contacts',
        'Create, change and delete your contacts',
      ])
        assert.ok(notesEntry.includes(words), `Notes' entry says ${words}`);
      // Dates in the page's language through Intl: the day of the grant, and the last use relative to now.
      assert.match(
        notesEntry,
        /Allowed since January 15, 2027 · Last used <time datetime="2027-01-17T08:00:00.000Z">now<\/time>/,
      );
    });

    it("Remove access revokes every grant of the application, each with its grant_revoked event, and nothing of another's", async () => {
      const page = await browser.get('/account');
      const removed = await browser.post('/account/revoke', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        client_id: notes.id,
      });
      assert.equal(removed.status, 303);
      assert.equal(removed.location, '/account?done=access_removed&client_id=notes');
      // The page says what happened, naming the application, once it holds no grant any more.
      const after = await browser.get(removed.location);
      assert.match(after.html, /<p class="notice" role="status">Access removed: Notes can no longer use your account/);
      const forged = await browser.get('/account?done=access_removed&client_id=photos');
      assert.doesNotMatch(forged.html, /class="notice"/, 'a link cannot claim a removal that did not happen');

      const events = (await server.context.store.listAuditEvents({ event: 'grant_revoked', limit: 100 })).filter(
        (e) => e.clientId === notes.id,
      );
      assert.equal(events.length, 2, 'one grant_revoked per grant');
      // Audit events name the user by subject (one subject per user).
      const alice = await server.context.store.findUser('alice');
      for (const e of events) assert.deepEqual([e.subject, e.reason], [alice?.subject, 'revoked_by_user']);
      assert.equal(new Set(events.map((e) => e.grantId)).size, 2);
      for (const token of notesTokens) assert.equal((await refresh(server, notes, token)).status, 400);

      assert.equal((await refresh(server, notes, bobsNotesToken)).status, 200, "bob's grant of the same client stays");
      assert.equal((await refresh(server, photos, photosToken)).status, 200, 'the other application stays');
      assert.deepEqual(applicationsOn((await browser.get('/account')).html), ['Photos']);
    });

    it("removing an application the user does not hold (bob's only) changes nothing; without the CSRF token it is refused", async () => {
      const before = (await server.context.store.listAuditEvents({ limit: 1000 })).length;
      const page = await browser.get('/account');
      const none = await browser.post('/account/revoke', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        client_id: notes.id,
      });
      assert.equal(none.status, 303);
      const refused = await browser.post('/account/revoke', { client_id: photos.id });
      assert.equal(refused.status, 403);
      assert.equal((await server.context.store.listAuditEvents({ limit: 1000 })).length, before);
      assert.deepEqual(applicationsOn((await browser.get('/account')).html), ['Photos']);
    });
  });
}
