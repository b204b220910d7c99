// The route of fastify-route.mjs, plain Fastify, behind @gatehouse/resource-server: the kit verifies
// a real Gatehouse access token (ES256, keys fetched once from the jwks_uri of a Gatehouse started
// in a child process, idle while measured), checks the scope the operation's `security` asks for, and
// validates the body against the OpenAPI document with the contract's validator. No introspection,
// no storage. The route has no schema of its own.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { gatehouseFastify } from '@gatehouse/resource-server/fastify';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'bench', version: '1' },
  paths: {
    '/v2/contacts': {
      post: {
        security: [{ gatehouse: ['contacts:write'] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['email'],
                properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' } },
                additionalProperties: false,
              },
            },
          },
        },
        responses: { 201: { description: 'created' } },
      },
    },
  },
};

// The Gatehouse runs in a child process, so that the server measured is the API alone.
if (process.argv.includes('--gatehouse')) {
  const { addUser, issueOperatorGrant, registerClient, startServer } = await import('@gatehouse/server');
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const gatehouse = await startServer({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'gatehouse-bench-kit-')), 'gatehouse.db')}`,
    issuer,
    port,
    host: '127.0.0.1',
    logger: false,
  });
  const now = Math.floor(Date.now() / 1000);
  const client = { id: 'bench-kit', name: 'bench-kit', scope: ['contacts:write'], redirectUris: [], accessTokenTtl: 3600 };
  await registerClient(gatehouse.context.store, client, now);
  // A grant is a user's: ada first.
  await addUser(gatehouse.context.store, 'ada', 'bench-kit password', now);
  const { access_token: accessToken, grant_id: grantId } = await issueOperatorGrant(gatehouse.context, 'bench-kit', 'ada', ['contacts:write']);
  // A token of the same grant bound to a DPoP key (RFC 9449 §6), for kit-dpop-201; the key's private half goes to the load generator.
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const dpopJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const { calculateJwkThumbprint } = await import('jose');
  const jkt = await calculateJwkThumbprint({ kty: 'EC', crv: 'P-256', x: dpopJwk.x, y: dpopJwk.y });
  const subject = (await gatehouse.context.store.findUser('ada')).subject;
  const dpopAccessToken = gatehouse.context.accessTokens.mint({
    subject, clientId: 'bench-kit', scope: ['contacts:write'], grantId, ttl: 3600, now: Math.floor(Date.now() / 1000), dpopJkt: jkt,
  });
  process.stdout.write(`${JSON.stringify({ issuer, accessToken, dpopJwk, dpopAccessToken })}\n`);
  process.on('SIGTERM', () => process.exit(0));
} else {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--gatehouse'], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('SIGTERM', () => {
    child.kill('SIGTERM');
    process.exit(0);
  });
  const { issuer, accessToken, dpopJwk, dpopAccessToken } = JSON.parse(await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve)));
  await startApi(issuer, accessToken, { dpopJwk, dpopAccessToken });
}

async function startApi(issuer, accessToken, dpop) {
  const app = Fastify({ logger: false });
  await app.register(gatehouseFastify, { issuer, openapi: DOCUMENT });
  app.post('/v2/contacts', async (request, reply) => {
    const id = randomUUID();
    return reply.code(201).header('location', `/v2/contacts/${id}`).send({ id, ...request.body });
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ ready: true, port: app.server.address().port, bearer: `Bearer ${accessToken}`, ...dpop })}\n`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
}
