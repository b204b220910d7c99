/**
 * Groups and roles in access tokens (RFC 9068 §2.2.3.1), against a listening server on both
 * dialects: a role reaches a user directly, through a group and through a parent group; a token
 * carries the roles of its own audience's API only; a removal is gone from the next refresh's token,
 * also when it races the refresh; too many names overflow to a marker and never grow a token past
 * 8 KB; a token exchange never carries more roles than its subject token (RFC 8693 §2.1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  addGroupMember,
  assignRole,
  createGroup,
  createRole,
  removeGroupMember,
  unassignRole,
} from '../src/access/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { DIALECTS } from './_dialects.js';
import { assertOkJson, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

for (const dialect of DIALECTS)
  describe(`roles and groups in access tokens [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let orders: TestClient;
    const now = (): number => server.clock.now();

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app', grantTypes: ['authorization_code', 'refresh_token'] });
      orders = await server.addClient({
        id: 'orders',
        grantTypes: [EXCHANGE],
        exchangeAudiences: ['billing', 'mail'],
        exchangeSubjectAudiences: [ISSUER],
      });
      await server.addClient({ id: 'billing', resourceServer: true });
      await server.addClient({ id: 'mail', resourceServer: true });
      const { audit } = server.context;
      await server.issueGrant(app, 'alice');
      await server.issueGrant(app, 'bob');
      await createGroup(audit, 'company', undefined, now(), CLI_ACTOR);
      await createGroup(audit, 'engineering', 'company', now(), CLI_ACTOR);
      await addGroupMember(audit, 'engineering', 'alice', now(), CLI_ACTOR);
      await createRole(audit, { name: 'contacts-reader', api: '/v2' }, now(), CLI_ACTOR);
      await createRole(audit, { name: 'contacts-writer', api: '/v2' }, now(), CLI_ACTOR);
      await createRole(audit, { name: 'staff' }, now(), CLI_ACTOR);
      await createRole(audit, { name: 'invoices', api: 'billing' }, now(), CLI_ACTOR);
      await createRole(audit, { name: 'mailboxes', api: 'mail' }, now(), CLI_ACTOR);
      await assignRole(audit, { name: 'contacts-reader', api: '/v2' }, { user: 'alice' }, now(), CLI_ACTOR);
      await assignRole(audit, { name: 'contacts-writer', api: '/v2' }, { group: 'engineering' }, now(), CLI_ACTOR);
      await assignRole(audit, { name: 'staff' }, { group: 'company' }, now(), CLI_ACTOR);
      await assignRole(audit, { name: 'invoices', api: 'billing' }, { group: 'company' }, now(), CLI_ACTOR);
      await assignRole(audit, { name: 'mailboxes', api: 'mail' }, { user: 'alice' }, now(), CLI_ACTOR);
    });
    after(() => server?.close());

    async function refresh(refreshToken: string): Promise<Record<string, unknown>> {
      return assertOkJson(
        await server.post('/token', { grant_type: 'refresh_token', refresh_token: refreshToken }, { as: app }),
      );
    }

    it('a role reaches a user directly, through its group and through the group above it; groups list both', async () => {
      const { access_token } = await server.issueGrant(app, 'alice');
      const claims = decodeJwt(access_token);
      assert.deepEqual(claims['roles'], ['contacts-reader', 'contacts-writer', 'staff']);
      assert.deepEqual(claims['groups'], ['company', 'engineering']);
    });

    it("a token for this server carries the REST API's roles and the server-wide ones, never billing's or mail's", async () => {
      const { access_token } = await server.issueGrant(app, 'alice');
      const roles = decodeJwt(access_token)['roles'] as string[];
      assert.ok(!roles.includes('invoices') && !roles.includes('mailboxes'));
    });

    it('a user with no group and no role gets a token without the claims', async () => {
      const { access_token } = await server.issueGrant(app, 'bob');
      const claims = decodeJwt(access_token);
      assert.equal(claims['roles'], undefined);
      assert.equal(claims['groups'], undefined);
    });

    it('a role taken back is gone from the access token of the next refresh; one given appears', async () => {
      await createRole(audit(), { name: 'temporary', api: '/v2' }, now(), CLI_ACTOR);
      await assignRole(audit(), { name: 'temporary', api: '/v2' }, { user: 'bob' }, now(), CLI_ACTOR);
      const first = await server.issueGrant(app, 'bob');
      assert.deepEqual(decodeJwt(first.access_token)['roles'], ['temporary']);
      await unassignRole(audit(), { name: 'temporary', api: '/v2' }, { user: 'bob' }, now(), CLI_ACTOR);
      const second = await refresh(first.refresh_token);
      assert.equal(decodeJwt(second['access_token'] as string)['roles'], undefined);
      await addGroupMember(audit(), 'company', 'bob', now(), CLI_ACTOR);
      const third = await refresh(second['refresh_token'] as string);
      assert.deepEqual(decodeJwt(third['access_token'] as string)['roles'], ['staff']);
      await removeGroupMember(audit(), 'company', 'bob', now(), CLI_ACTOR);
      const fourth = await refresh(third['refresh_token'] as string);
      assert.equal(decodeJwt(fourth['access_token'] as string)['roles'], undefined);
      assert.equal(decodeJwt(fourth['access_token'] as string)['groups'], undefined);
    });

    it('race: a refresh that starts after a membership removal commits never carries the role it gave', async () => {
      await server.issueGrant(app, 'carol');
      let token = (await server.issueGrant(app, 'carol')).refresh_token;
      for (let round = 0; round < 15; round++) {
        await addGroupMember(audit(), 'company', 'carol', now(), CLI_ACTOR);
        // The removal and a refresh run at once; a second refresh starts only after the removal committed.
        const removal = removeGroupMember(audit(), 'company', 'carol', now(), CLI_ACTOR);
        const racing = refresh(token);
        await removal;
        const afterRemoval = refresh((await racing)['refresh_token'] as string);
        const answer = await afterRemoval;
        assert.equal(decodeJwt(answer['access_token'] as string)['roles'], undefined, `round ${round}`);
        token = answer['refresh_token'] as string;
      }
    });

    it('past the bound, the lists give way to the userinfo marker (OIDC Core §5.6.2) and the token stays under 8 KB', async () => {
      await server.issueGrant(app, 'dave');
      const long = (i: number): string => `${'g'.repeat(56)}-${String(i).padStart(6, '0')}`;
      // 101 groups: past the count; 40 roles of 63 characters: past the 2,048 bytes.
      for (let i = 0; i < 101; i++) {
        await createGroup(audit(), `g${i}`, undefined, now(), CLI_ACTOR);
        await addGroupMember(audit(), `g${i}`, 'dave', now(), CLI_ACTOR);
      }
      for (let i = 0; i < 40; i++) {
        await createRole(audit(), { name: long(i), api: '/v2' }, now(), CLI_ACTOR);
        await assignRole(audit(), { name: long(i), api: '/v2' }, { user: 'dave' }, now(), CLI_ACTOR);
      }
      const { access_token } = await server.issueGrant(app, 'dave');
      const claims = decodeJwt(access_token);
      assert.equal(claims['groups'], undefined);
      assert.equal(claims['roles'], undefined);
      assert.deepEqual(claims['_claim_names'], { roles: 'userinfo', groups: 'userinfo' });
      assert.deepEqual(claims['_claim_sources'], { userinfo: { endpoint: `${ISSUER}/userinfo` } });
      assert.ok(`Authorization: Bearer ${access_token}`.length < 8192);
    });

    it("an exchanged token for billing carries billing's roles only as far as the subject token carried them", async () => {
      const subject = await server.issueGrant(app, 'alice');
      const answer = await assertOkJson(
        await server.post(
          '/token',
          {
            grant_type: EXCHANGE,
            subject_token: subject.access_token,
            subject_token_type: ACCESS_TOKEN,
            audience: 'billing',
          },
          { as: orders },
        ),
      );
      const claims = decodeJwt(String(answer['access_token']));
      assert.equal(claims['aud'], 'billing');
      // alice holds `invoices` for billing, but the subject token (for this server) did not carry it.
      assert.deepEqual(claims['roles'], ['staff']);
      const subjectRoles = decodeJwt(subject.access_token)['roles'] as string[];
      for (const role of claims['roles']) assert.ok(subjectRoles.includes(role));
    });

    it('the roles and groups scopes release the claims in the ID token and at userinfo; without them, neither has them', async () => {
      const oidc = await server.addClient({ id: 'oidc', scope: ['openid', 'roles', 'groups', 'profile'] });
      const verifier = 'v'.repeat(43);
      for (const [scope, expected] of [
        [['openid', 'roles', 'groups'], true],
        [['openid', 'profile'], false],
      ] as const) {
        const redirectUri = 'https://app.example/callback';
        const code = await server.createCode(oidc, { verifier, redirectUri, username: 'alice', scope });
        const tokens = await assertOkJson(
          await server.post(
            '/token',
            { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri },
            { as: oidc },
          ),
        );
        const idToken = decodeJwt(String(tokens['id_token']));
        const answer = await fetch(`${server.url}/userinfo`, {
          headers: { authorization: `Bearer ${String(tokens['access_token'])}` },
        });
        assert.equal(answer.status, 200);
        const userinfo = (await answer.json()) as Record<string, unknown>;
        if (expected) {
          // The ID token's roles: server-wide, and those of the client's own API (none here).
          assert.deepEqual(idToken['roles'], ['staff']);
          assert.deepEqual(idToken['groups'], ['company', 'engineering']);
          // Userinfo: the roles of its token's audience (this server: the REST API's) and server-wide.
          assert.deepEqual(userinfo['roles'], ['contacts-reader', 'contacts-writer', 'staff']);
          assert.deepEqual(userinfo['groups'], ['company', 'engineering']);
        } else {
          assert.equal(idToken['roles'], undefined);
          assert.equal(userinfo['groups'], undefined);
        }
      }
      const discovery = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      assert.ok((discovery['scopes_supported'] as string[]).includes('roles'));
      assert.ok((discovery['claims_supported'] as string[]).includes('groups'));
    });

    const audit = () => server.context.audit;
  });
