import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiDefinitionFrom } from '../src/api/definition.js';
import { widgetsDocument } from './_documents.js';
import { authorizationQuery, CALLBACK, pkce } from './_authorize.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestServer } from './_server.js';

async function getJson(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

/** The scopes the served OpenAPI document's operations require, read from the document itself. */
async function servedScopes(server: TestServer): Promise<string[]> {
  const document = (await getJson(`${server.url}/v2/openapi.json`)) as {
    paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
  };
  const scopes = Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) => (operation.security ?? []).flatMap((r) => Object.values(r).flat())),
  );
  return [...new Set(scopes)].sort();
}

describe('protected resource metadata of the REST API (RFC 9728)', () => {
  let server: TestServer;
  let widgets: TestServer;
  before(async () => {
    [server, widgets] = await Promise.all([
      startTestServer(),
      startTestServer({ api: apiDefinitionFrom(widgetsDocument(), 'widgets-test') }),
    ]);
  });
  after(async () => {
    await Promise.all([server?.close(), widgets?.close()]);
  });

  it('RFC 9728 §3.1: the path-suffixed URL describes the resource {issuer}/v2, naming this authorization server', async () => {
    const metadata = await getJson(`${server.url}/.well-known/oauth-protected-resource/v2`);
    assert.deepEqual(
      { ...metadata, scopes_supported: (metadata.scopes_supported as string[]).sort() },
      {
        resource: `${ISSUER}/v2`,
        authorization_servers: [ISSUER],
        scopes_supported: await servedScopes(server),
        bearer_methods_supported: ['header'],
        resource_name: 'Gatehouse REST API',
      },
    );
  });

  it('RFC 9728 §3.3: the bare well-known URL describes the resource {issuer}, the identifier it is formed from', async () => {
    const metadata = await getJson(`${server.url}/.well-known/oauth-protected-resource`);
    assert.equal(metadata.resource, ISSUER);
    assert.deepEqual(metadata.authorization_servers, [ISSUER]);
  });

  it('RFC 9728 §2: scopes_supported follows the served document: another document, other scopes', async () => {
    const metadata = await getJson(`${widgets.url}/.well-known/oauth-protected-resource/v2`);
    assert.deepEqual((metadata.scopes_supported as string[]).sort(), await servedScopes(widgets));
    assert.ok((metadata.scopes_supported as string[]).includes('widgets:write'));
  });

  it('RFC 8707 §2: a token request naming the resource gets a token with it as aud, which the API accepts; another resource is invalid_target', async () => {
    const client = await server.addClient({ id: 'resource-svc' });
    const request = (resource: string) =>
      server.post('/token', { grant_type: 'client_credentials', scope: 'contacts:read', resource }, { as: client });
    const answer = await request(`${ISSUER}/v2`);
    assert.equal(answer.status, 200);
    const { access_token } = (await answer.json()) as { access_token: string };
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1] as string, 'base64url').toString()) as {
      aud: string;
    };
    assert.equal(claims.aud, `${ISSUER}/v2`);
    // The API accepts the token (another audience would be 401 invalid_token); contacts belong to
    // users, so a client's own token then reaches none of them (docs/rest-api.md, "Whose records").
    const listed = await fetch(`${server.url}/v2/contacts`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(listed.status, 403);
    assert.equal(((await listed.json()) as { type: string }).type, '/problems/owner-required');
    for (const other of ['https://elsewhere.example/api', `${ISSUER}/v3`, 'not a uri'])
      await assertOAuthError(await request(other), {
        error: 'invalid_target',
        description: 'resource is not a resource this server serves',
      });
  });

  it('RFC 8707 §2: an authorization request naming a resource the server does not serve is answered invalid_target at the redirect URI', async () => {
    const client = await server.addClient({ id: 'resource-app', public: true, redirectUris: [CALLBACK] });
    const authorize = (resource: string) =>
      fetch(`${server.url}/authorize?${authorizationQuery(client.id, pkce().challenge, { resource })}`, {
        redirect: 'manual',
      });
    const refused = new URL((await authorize('https://elsewhere.example/api')).headers.get('location') ?? '');
    assert.equal(refused.searchParams.get('error'), 'invalid_target');
    // The API's own identifier goes on to sign-in.
    const known = await authorize(`${ISSUER}/v2`);
    assert.equal(known.status, 200);
    assert.match(await known.text(), /Sign in/);
  });

  it('RFC 9728 §5.1: every 401 of the API names the metadata URL, next to the RFC 6750 error attributes', async () => {
    const expected = `resource_metadata="${ISSUER}/.well-known/oauth-protected-resource/v2"`;
    const none = await fetch(`${server.url}/v2/contacts`);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), `Bearer realm="gatehouse", ${expected}`);
    const bad = await fetch(`${server.url}/v2/contacts`, { headers: { authorization: 'Bearer nope' } });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get('www-authenticate'), `Bearer realm="gatehouse", ${expected}, error="invalid_token"`);
  });
});
