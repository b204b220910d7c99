import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { gatehouseFastify } from '@gatehouse/resource-server/fastify';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  security: [{ gatehouse: ['notes:write'] }],
  paths: Object.fromEntries(
    ['/notes', '/small'].map((path) => [
      path,
      {
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } } } } },
          },
          responses: { '201': { description: 'created' } },
        },
      },
    ]),
  ),
};

/** The plugin with no authorization server behind it: every answer here comes before a token is verified. */
async function api() {
  const app = Fastify({ logger: false });
  await app.register(gatehouseFastify, { issuer: 'http://127.0.0.1:9', openapi: DOCUMENT });
  app.post('/notes', () => ({ created: true }));
  app.post('/small', { bodyLimit: 64 }, () => ({ created: true }));
  return app;
}

function postJson(app: Awaited<ReturnType<typeof api>>, url: string, payload: string) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
}

describe('the Fastify plugin', () => {
  it("answers a declared length over a route's own bodyLimit with the catalog's 413, before reading the body", async () => {
    const app = await api();
    const body = JSON.stringify({ text: 'x'.repeat(100) });
    const small = await postJson(app, '/small', body);
    assert.equal(small.statusCode, 413);
    assert.equal(small.headers['content-type'], 'application/problem+json');
    assert.equal(small.json().detail, 'The request body is larger than 64 bytes.');
    // The same body is under the server's limit on a route without one of its own: on to the token check.
    const notes = await postJson(app, '/notes', body);
    assert.equal(notes.statusCode, 401);
    assert.equal(notes.headers['www-authenticate'], 'Bearer realm="api"');
    await app.close();
  });

  it('answers problems with exactly application/problem+json, no charset appended (RFC 9457 §3)', async () => {
    const app = await api();
    const response = await postJson(app, '/notes', '{}');
    assert.equal(response.headers['content-type'], 'application/problem+json');
    assert.equal(response.json().type, 'http://127.0.0.1:9/problems/invalid-token');
    await app.close();
  });
});
