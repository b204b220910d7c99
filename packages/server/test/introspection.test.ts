import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOAuthError, assertOkJson, ISSUER } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';
import { DIALECTS } from './_dialects.js';
import type { ReadsAtOnce } from '../src/store/store.js';

const HOUR = 3600;
const ACTIVE_KEYS = ['active', 'client_id', 'exp', 'iat', 'iss', 'scope', 'sub', 'token_type'];

for (const dialect of DIALECTS)
  describe(`POST /introspect (RFC 7662) [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let other: TestClient;
    let resourceServer: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app', refreshTokenTtl: HOUR });
      other = await server.addClient({ id: 'other' });
      resourceServer = await server.addClient({ id: 'api', resourceServer: true });
    });
    after(() => server.close());

    async function introspect(
      token: string,
      as: TestClient = app,
      extra: Record<string, string> = {},
    ): Promise<Record<string, unknown>> {
      return assertOkJson(await server.post('/introspect', { token, ...extra }, { as }));
    }

    /** RFC 7662 §2.2 `sub`: the user's opaque subject, never the username. */
    async function subjectOf(username: string): Promise<string | undefined> {
      return (await server.context.store.findUser(username))?.subject;
    }

    it('a live refresh token introspected by its own client gives exactly active, token_type, client_id, sub, scope, exp, iat and iss', async () => {
      const issuedAt = server.clock.now();
      const { refresh_token } = await server.issueGrant(app, 'alice', ['contacts:read', 'contacts:write']);
      const body = await introspect(refresh_token);
      assert.deepEqual(Object.keys(body).sort(), ACTIVE_KEYS);
      assert.deepEqual(body, {
        active: true,
        token_type: 'refresh_token',
        client_id: 'app',
        sub: await subjectOf('alice'),
        scope: 'contacts:read contacts:write',
        exp: issuedAt + HOUR,
        iat: issuedAt,
        iss: ISSUER,
      });
    });

    it('an unknown token gives exactly {"active":false}', async () => {
      assert.deepEqual(await introspect('no-such-token'), { active: false });
      assert.deepEqual(await introspect('not.a.jwt'), { active: false });
    });

    it('an expired refresh token (past the client\'s refresh token TTL) gives exactly {"active":false}', async () => {
      const { refresh_token } = await server.issueGrant(app);
      assert.equal((await introspect(refresh_token)).active, true);
      server.clock.advance(HOUR + 1);
      assert.deepEqual(await introspect(refresh_token), { active: false });
    });

    it('a refresh token revoked through POST /revoke gives exactly {"active":false}', async () => {
      const { refresh_token } = await server.issueGrant(app);
      assert.equal((await server.post('/revoke', { token: refresh_token }, { as: app })).status, 200);
      assert.deepEqual(await introspect(refresh_token), { active: false });
    });

    it('a refresh token past its rotation limit (used twice with a limit of 2) gives exactly {"active":false}', async () => {
      const twice = await server.addClient({ id: 'twice', rotationLimit: 2 });
      const { refresh_token } = await server.issueGrant(twice);
      assert.equal((await refresh(server, twice, refresh_token)).status, 200);
      assert.equal((await introspect(refresh_token, twice)).active, true);
      assert.equal((await refresh(server, twice, refresh_token)).status, 200);
      assert.deepEqual(await introspect(refresh_token, twice), { active: false });
      assert.equal(
        (await refresh(server, twice, refresh_token)).body.error_description,
        'refresh token is past its rotation limit',
      );
    });

    it('an unauthenticated caller gets 401 invalid_client', async () => {
      const { refresh_token } = await server.issueGrant(app);
      await assertOAuthError(await server.post('/introspect', { token: refresh_token }), {
        error: 'invalid_client',
        description: 'client authentication failed',
      });
      await assertOAuthError(
        await server.post('/introspect', { token: refresh_token }, { as: { id: app.id, secret: 'wrong' } }),
        { error: 'invalid_client' },
      );
    });

    it('a request without token gets 400 invalid_request "missing required parameter \'token\'"', async () => {
      await assertOAuthError(await server.post('/introspect', { token_type_hint: 'refresh_token' }, { as: app }), {
        error: 'invalid_request',
        description: "missing required parameter 'token'",
      });
    });

    it('another client\'s token gives {"active":false} unless the caller is a resource server, which sees it active', async () => {
      const { refresh_token } = await server.issueGrant(app);
      assert.deepEqual(await introspect(refresh_token, other), { active: false });
      const seen = await introspect(refresh_token, resourceServer);
      assert.equal(seen.active, true);
      assert.equal(seen.client_id, 'app');
      assert.equal(seen.sub, await subjectOf('alice'));
    });

    it('a public client cannot introspect, not even its own token (401 invalid_client)', async () => {
      const spa = await server.addClient({ id: 'spa', public: true });
      const { refresh_token } = await server.issueGrant(spa);
      await assertOAuthError(await server.post('/introspect', { token: refresh_token }, { as: spa }), {
        error: 'invalid_client',
        description: 'client authentication failed',
      });
    });

    it('an access token introspects active with token_type Bearer and its aud (RFC 7662 §2.2), and inactive once its grant is revoked', async () => {
      const issuedAt = server.clock.now();
      const { access_token, refresh_token } = await server.issueGrant(app);
      const body = await introspect(access_token);
      assert.deepEqual(Object.keys(body).sort(), [...ACTIVE_KEYS, 'aud'].sort());
      assert.deepEqual(body, {
        active: true,
        token_type: 'Bearer',
        client_id: 'app',
        sub: await subjectOf('alice'),
        scope: 'contacts:read',
        exp: issuedAt + 300,
        iat: issuedAt,
        iss: ISSUER,
        aud: ISSUER,
      });
      assert.equal((await server.post('/revoke', { token: refresh_token }, { as: app })).status, 200);
      assert.deepEqual(await introspect(access_token), { active: false });
    });

    it('an access token past its expiry gives exactly {"active":false}', async () => {
      const { access_token } = await server.issueGrant(app);
      server.clock.advance(301);
      assert.deepEqual(await introspect(access_token), { active: false });
    });

    it('a client_credentials access token, which has no grant, introspects active', async () => {
      const response = await assertOkJson(
        await server.post('/token', { grant_type: 'client_credentials' }, { as: other }),
      );
      const body = await introspect(response.access_token as string, other);
      assert.equal(body.active, true);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.sub, 'other');
    });

    it('token_type_hint=access_token given for a refresh token still finds it', async () => {
      const { refresh_token } = await server.issueGrant(app);
      const body = await introspect(refresh_token, app, { token_type_hint: 'access_token' });
      assert.equal(body.active, true);
      assert.equal(body.token_type, 'refresh_token');
    });
  });

/**
 * On SQLite a refresh token's introspection is answered in the request's own turn, without an await
 * (its reads and limits are in the process: oauth/endpoints/introspect.ts); every step that must
 * wait hands it to the awaited path, which gives the same answer.
 */
describe('POST /introspect answered at once [sqlite]', () => {
  let server: TestServer;
  let app: TestClient;
  let resourceServer: TestClient;
  let reads: ReadsAtOnce;
  const calls = { client: 0, brief: 0 };
  /** What the spied reads answer: the store's, or null (a read that must wait) when set. */
  const wait = { client: false, brief: false };

  before(async () => {
    server = await startTestServer({ dialect: 'sqlite' });
    app = await server.addClient({ id: 'app', refreshTokenTtl: HOUR });
    resourceServer = await server.addClient({ id: 'api', resourceServer: true });
    const store = server.context.store as { readsAtOnce?: ReadsAtOnce };
    assert.ok(store.readsAtOnce);
    const own = store.readsAtOnce;
    reads = {
      ...own,
      findClient: (id) => (calls.client++, wait.client ? null : own.findClient(id)),
      findRefreshTokenBrief: (id) => (calls.brief++, wait.brief ? null : own.findRefreshTokenBrief(id)),
    };
    Object.defineProperty(store, 'readsAtOnce', { value: reads });
  });
  after(() => server.close());

  async function introspect(token: string, as: TestClient): Promise<Record<string, unknown>> {
    return assertOkJson(await server.post('/introspect', { token }, { as }));
  }

  it('a refresh token’s answer comes from the reads at once, the same as the awaited path’s', async () => {
    const { refresh_token } = await server.issueGrant(app, 'alice', ['contacts:read']);
    Object.assign(calls, { client: 0, brief: 0 });
    const atOnce = await introspect(refresh_token, app);
    assert.deepEqual(calls, { client: 1, brief: 1 });
    wait.client = true;
    const awaited = await introspect(refresh_token, app);
    wait.client = false;
    assert.equal(awaited.active, true);
    assert.deepEqual(atOnce, awaited);
  });

  it('a resource server’s introspection reads the token’s client too, at once or awaited alike', async () => {
    const { refresh_token } = await server.issueGrant(app, 'alice', ['contacts:read']);
    Object.assign(calls, { client: 0, brief: 0 });
    const atOnce = await introspect(refresh_token, resourceServer);
    assert.deepEqual(calls, { client: 2, brief: 1 }, 'the caller, then the token’s client');
    wait.brief = true;
    const awaited = await introspect(refresh_token, resourceServer);
    wait.brief = false;
    assert.equal(atOnce.client_id, 'app');
    assert.deepEqual(atOnce, awaited);
  });

  it('a wrong secret is left to the awaited path: invalid_client, with its audit record', async () => {
    const failures = async (): Promise<number> =>
      (await server.context.store.listAuditEvents({ event: 'client_authentication_failed', limit: 1000 })).length;
    const before = await failures();
    await assertOAuthError(await server.post('/introspect', { token: 'x' }, { as: { id: 'app', secret: 'wrong' } }), {
      error: 'invalid_client',
    });
    assert.equal(await failures(), before + 1);
  });

  it('a revoked token, an unknown one and another client’s answer {"active":false} at once', async () => {
    const other = await server.addClient({ id: 'other' });
    const { refresh_token } = await server.issueGrant(app);
    assert.deepEqual(await introspect(refresh_token, other), { active: false });
    assert.equal((await server.post('/revoke', { token: refresh_token }, { as: app })).status, 200);
    Object.assign(calls, { client: 0, brief: 0 });
    assert.deepEqual(await introspect(refresh_token, app), { active: false });
    assert.deepEqual(await introspect('unknown', app), { active: false });
    assert.equal(calls.brief, 2);
  });
});
