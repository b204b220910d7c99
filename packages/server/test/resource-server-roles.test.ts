/**
 * An API's own roles (`roles add NAME --api billing`) reach the tokens for that API: a token request
 * naming a resource server registered here as its RFC 8707 §2 `resource` gets an access token
 * restricted to it (`aud` its client id) that carries its roles, and no other API's, on both
 * dialects (docs/roles.md).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { assignRole, createRole } from '../src/access/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { CALLBACK, pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

for (const dialect of DIALECTS)
  describe(`roles of a resource server, in tokens for it [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;

    /** A code for erin exchanged with `extra` (e.g. a resource): the token response. */
    async function tokens(extra: Record<string, string> = {}) {
      const { verifier } = pkce();
      const code = await server.createCode(app, {
        verifier,
        redirectUri: CALLBACK,
        username: 'erin',
        scope: ['openid'],
      });
      const form = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: CALLBACK,
        ...extra,
      };
      const response = await server.post('/token', form, { as: app });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    }

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app', redirectUris: [CALLBACK], scope: ['openid'] });
      await server.addClient({ id: 'billing', resourceServer: true });
      await server.addClient({ id: 'mail', resourceServer: true });
      await server.issueGrant(app, 'erin', ['openid']);
      const { audit } = server.context;
      const now = server.clock.now();
      await createRole(audit, { name: 'invoices-read', api: 'billing' }, now, CLI_ACTOR);
      await createRole(audit, { name: 'mail-send', api: 'mail' }, now, CLI_ACTOR);
      await createRole(audit, { name: 'staff' }, now, CLI_ACTOR);
      for (const [name, api] of [
        ['invoices-read', 'billing'],
        ['mail-send', 'mail'],
        ['staff', undefined],
      ] as const)
        await assignRole(audit, { name, api }, { user: 'erin' }, now, CLI_ACTOR);
    });
    after(() => server?.close());

    it('RFC 8707 §2: resource=billing at the token endpoint: aud billing, and billing’s roles with the server-wide ones, never mail’s', async () => {
      const { status, body } = await tokens({ resource: 'billing' });
      assert.equal(status, 200, JSON.stringify(body));
      const claims = decodeJwt(body.access_token as string);
      assert.equal(claims.aud, 'billing');
      assert.deepEqual([...(claims.roles as string[])].sort(), ['invoices-read', 'staff']);
    });

    it('without a resource the token is for this server: no API role of billing or mail', async () => {
      const { body } = await tokens();
      const claims = decodeJwt(body.access_token as string);
      assert.equal(claims.aud, ISSUER);
      assert.deepEqual(claims.roles, ['staff']);
    });

    it('a refresh may name the resource too (RFC 8707 §2.2): each access token carries its own API’s roles', async () => {
      const { body } = await tokens();
      const forMail = await refresh(server, app, body.refresh_token as string, { resource: 'mail' });
      assert.equal(forMail.status, 200, JSON.stringify(forMail.body));
      const claims = decodeJwt(forMail.body.access_token as string);
      assert.equal(claims.aud, 'mail');
      assert.deepEqual([...(claims.roles as string[])].sort(), ['mail-send', 'staff']);
    });

    it('a resource that is neither served here nor a registered resource server is invalid_target', async () => {
      for (const resource of ['app', 'https://unknown.example']) {
        const { status, body } = await tokens({ resource });
        assert.equal(status, 400);
        assert.equal(body.error, 'invalid_target', resource);
      }
    });
  });
