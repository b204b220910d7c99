import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { decodeJwt } from 'jose';
import pg from 'pg';
import { runCli } from '../src/cli/run.js';
import { localTokenSteps } from '../src/oauth/tokens/access-token-check.js';
import type { AccessTokenClaims } from '../src/oauth/tokens/access-tokens.js';
import { createAuthorizationCode } from '../src/oauth/tokens/authorization-codes.js';
import { createDeviceAuthorization } from '../src/oauth/device/device-authorizations.js';
import { issueGrant } from '../src/oauth/tokens/grant-issuance.js';
import type { ClientRecord } from '../src/primitives/records.js';
import { digestOf, s256 } from '../src/primitives/secrets.js';
import { openStore } from '../src/store/open.js';
import {
  addTestUser,
  authorizationQuery,
  CALLBACK,
  hiddenField,
  obtainCode,
  PageBrowser,
  PASSWORD,
  pkce,
} from './_authorize.js';
import { DIALECTS, type Dialect } from './_dialects.js';
import { assertOkJson } from './_oauth-assertions.js';
import { refresh, startTestServer, VERIFIER, type TestClient, type TestServer } from './_server.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const SCOPE = 'openid profile contacts:read';

/** The `sub` of every answer about one grant: its access token, ID token, userinfo, introspection. */
interface Subjects {
  readonly accessToken: unknown;
  readonly idToken: unknown;
  readonly userinfo: unknown;
  readonly introspectedAccessToken: unknown;
  readonly introspectedRefreshToken?: unknown;
}

for (const dialect of DIALECTS)
  describe(`one subject per user: access token, ID token, userinfo and introspection agree [${dialect}]`, () => {
    let server: TestServer;
    let rp: TestClient;
    let tv: TestClient;
    /** A resource server: it may introspect every client's tokens (RFC 7662 §2.1). */
    let api: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      rp = await server.addClient({ id: 'rp', redirectUris: [CALLBACK], scope: SCOPE.split(' ') });
      tv = await server.addClient({
        id: 'tv',
        public: true,
        grantTypes: [DEVICE_GRANT, 'refresh_token'],
        scope: SCOPE.split(' '),
      });
      api = await server.addClient({ id: 'api', resourceServer: true });
      for (const username of ['alice', 'bob', 'lena']) await addTestUser(server, username);
    });
    after(() => server.close());

    const subjectOf = async (username: string): Promise<string> => {
      const user = await server.context.store.findUser(username);
      assert.ok(user, `user ${username}`);
      return user.subject;
    };

    async function introspectedSub(token: string): Promise<unknown> {
      const body = await assertOkJson(await server.post('/introspect', { token }, { as: api }));
      assert.equal(body.active, true);
      return body.sub;
    }

    async function userinfoSub(accessToken: string): Promise<unknown> {
      const response = await fetch(`${server.url}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(response.status, 200);
      return ((await response.json()) as { sub?: unknown }).sub;
    }

    /** Every `sub` the server answers for a token response with an ID token. */
    async function subjectsOf(tokens: Record<string, unknown>): Promise<Subjects> {
      const accessToken = tokens.access_token as string;
      return {
        accessToken: decodeJwt(accessToken).sub,
        idToken: decodeJwt(tokens.id_token as string).sub,
        userinfo: await userinfoSub(accessToken),
        introspectedAccessToken: await introspectedSub(accessToken),
        introspectedRefreshToken: await introspectedSub(tokens.refresh_token as string),
      };
    }

    /** RFC 9068 §2.2, OIDC Core §2 and §5.3.2, RFC 7662 §2.2: one identifier, the user's opaque subject. */
    function assertOneSubject(subjects: Subjects, subject: string): void {
      assert.match(subject, /^[0-9a-f]{32}$/);
      for (const [answer, sub] of Object.entries(subjects)) assert.equal(sub, subject, `${answer} sub`);
    }

    async function codeFlow(username: string): Promise<Record<string, unknown>> {
      const { verifier, challenge } = pkce();
      const browser = new PageBrowser(server);
      const { code } = await obtainCode(browser, authorizationQuery('rp', challenge, { scope: SCOPE }), username);
      const form = {
        grant_type: 'authorization_code',
        code: code as string,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
      };
      return assertOkJson(await server.post('/token', form, { as: rp }));
    }

    it('authorization code flow: the access token, the ID token, userinfo and introspection all name the user by its subject, never its username', async () => {
      const tokens = await codeFlow('alice');
      assertOneSubject(await subjectsOf(tokens), await subjectOf('alice'));
    });

    it('refresh (RFC 6749 §6, OIDC Core §12.2): the new tokens name the same subject', async () => {
      const tokens = await codeFlow('bob');
      const refreshed = await refresh(server, rp, tokens.refresh_token as string);
      assert.equal(refreshed.status, 200);
      assertOneSubject(await subjectsOf(refreshed.body), await subjectOf('bob'));
    });

    it('device grant (RFC 8628): the tokens name the approving user by its subject', async () => {
      const started = await assertOkJson(await server.post('/device_authorization', { scope: SCOPE }, { as: tv }));
      const browser = new PageBrowser(server);
      const form = await browser.get('/device');
      const signIn = await browser.post('/device', {
        csrf_token: hiddenField(form.html, 'csrf_token'),
        user_code: started.user_code as string,
      });
      const consent = await browser.post('/device/login', {
        csrf_token: hiddenField(signIn.html, 'csrf_token'),
        request: hiddenField(signIn.html, 'request'),
        username: 'alice',
        password: PASSWORD,
      });
      await browser.post('/device/consent', {
        csrf_token: hiddenField(consent.html, 'csrf_token'),
        request: hiddenField(consent.html, 'request'),
        decision: 'allow',
      });
      const poll = { grant_type: DEVICE_GRANT, device_code: started.device_code as string };
      const tokens = await assertOkJson(await server.post('/token', poll, { as: tv }));
      assertOneSubject(await subjectsOf(tokens), await subjectOf('alice'));
    });

    it('an operator-issued grant (gatehouse grants issue --user) names the user by its subject; its refresh adds a matching ID token', async () => {
      const issued = await server.issueGrant(rp, 'bob', SCOPE.split(' '));
      const subject = await subjectOf('bob');
      assert.equal(decodeJwt(issued.access_token).sub, subject);
      assert.equal(await introspectedSub(issued.refresh_token), subject);
      const refreshed = await refresh(server, rp, issued.refresh_token);
      assert.equal(refreshed.status, 200);
      assertOneSubject(await subjectsOf(refreshed.body), subject);
    });

    it('a rename changes only the username: the old refresh token keeps working, and every sub before and after is the same subject', async () => {
      await addTestUser(server, 'dora');
      const subject = await subjectOf('dora');
      const tokens = await codeFlow('dora');
      const out: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
      const env = { DATABASE_URL: server.databaseUrl, ISSUER: 'http://gatehouse.test' };
      assert.equal(await runCli(['users', 'update', 'dora', '--username', 'dorothy'], env, io), 0, out.join('\n'));
      assert.equal(await subjectOf('dorothy'), subject);
      const grant = await server.context.store.findGrant(decodeJwt(tokens.access_token as string).grant_id as string);
      assert.equal(grant?.subject, subject, 'the grant row is untouched');
      assertOneSubject(await subjectsOf(tokens), subject);
      const refreshed = await refresh(server, rp, tokens.refresh_token as string);
      assert.equal(refreshed.status, 200);
      assertOneSubject(await subjectsOf(refreshed.body), subject);
    });

    it('migration 0015 rewrites a grant, a code and a device approval that name their user by username to its subject: the refresh token keeps working, and an access token minted before (sub: the username) is answered with the subject until it expires', async () => {
      const { store, accessTokens, clock } = server.context;
      const subject = await subjectOf('lena');
      const now = clock.now();
      const client = (await store.findClient('rp')) as ClientRecord;
      // Rows as a store before 0015 held them: the user named by username.
      const legacy = await store.transaction((tx) => issueGrant(tx, client, 'lena', SCOPE.split(' '), now));
      const orphan = await store.transaction((tx) => issueGrant(tx, client, 'svc-reporting', ['contacts:read'], now));
      const legacyAccessToken = accessTokens.mint({
        subject: 'lena',
        clientId: 'rp',
        scope: SCOPE.split(' '),
        grantId: legacy.grant.id,
        ttl: 300,
        now,
      });
      const code = await createAuthorizationCode(store, {
        client,
        subject: 'lena',
        scope: SCOPE.split(' '),
        redirectUri: CALLBACK,
        codeChallenge: s256(VERIFIER),
        now,
        authTime: now,
        amr: ['pwd'],
      });
      const device = await createDeviceAuthorization(store, {
        client: (await store.findClient('tv')) as ClientRecord,
        scope: SCOPE.split(' '),
        now,
      });
      const approval = { status: 'approved', subject: 'lena', authTime: now, amr: ['pwd'] } as const;
      assert.ok(await store.decideDeviceAuthorization(digestOf(device.deviceCode), approval, now));

      await migrateAgain(dialect, server.databaseUrl, '0015_grant_subjects');

      assert.equal((await store.findGrant(legacy.grant.id))?.subject, subject, 'rewritten in place');
      const refreshed = await refresh(server, rp, legacy.refreshToken as string);
      assert.equal(refreshed.status, 200, 'no one is signed out');
      assertOneSubject(await subjectsOf(refreshed.body), subject);
      // The access token minted before: its grant's subject at userinfo, introspection and the API.
      assert.equal(decodeJwt(legacyAccessToken).sub, 'lena');
      assert.equal(await userinfoSub(legacyAccessToken), subject);
      assert.equal(await introspectedSub(legacyAccessToken), subject);
      const listed = await fetch(`${server.url}/v2/contacts`, {
        headers: { authorization: `Bearer ${legacyAccessToken}` },
      });
      assert.equal(listed.status, 200);
      const steps = localTokenSteps(server.context);
      const claims = await steps.verify(legacyAccessToken);
      const state = await steps.liveness.read(legacyAccessToken, claims);
      const judged = steps.liveness.judge(state, claims) as AccessTokenClaims | undefined;
      assert.equal(judged?.sub, subject, 'the claims /v2 and /admin/v1 are handed');

      const exchanged = await assertOkJson(
        await server.post(
          '/token',
          { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: VERIFIER },
          { as: rp },
        ),
      );
      assertOneSubject(await subjectsOf(exchanged), subject);
      const polled = await assertOkJson(
        await server.post('/token', { grant_type: DEVICE_GRANT, device_code: device.deviceCode }, { as: tv }),
      );
      assertOneSubject(await subjectsOf(polled), subject);

      // A name that is no user's is left as it was: the grant is no user's, and works on for its client.
      assert.equal((await store.findGrant(orphan.grant.id))?.subject, 'svc-reporting');
      const orphanRefreshed = await refresh(server, rp, orphan.refreshToken as string);
      assert.equal(orphanRefreshed.status, 200);
      assert.equal(decodeJwt(orphanRefreshed.body.access_token as string).sub, 'svc-reporting');
    });
  });

/** Forgets that `migration` ran on the database and opens a store on it, which runs it again. */
async function migrateAgain(dialect: Dialect, url: string, migration: string): Promise<void> {
  const forget = 'delete from kysely_migration where name = $1';
  if (dialect === 'sqlite') {
    const database = new BetterSqlite3(url.slice('sqlite:'.length));
    try {
      database.prepare(forget.replace('$1', '?')).run(migration);
    } finally {
      database.close();
    }
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(forget, [migration]);
    } finally {
      await client.end();
    }
  }
  const store = await openStore(url);
  await store.close();
}
