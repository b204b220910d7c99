/**
 * requireRole and requireScope on Express and Fastify, against a real Gatehouse: a token whose user
 * holds one of the roles (RFC 9068 §2.2.3.1 `roles`) or whose scope has one of the scopes passes; any
 * other is answered with the catalog's 403 problem (insufficient_role, insufficient_scope with its
 * RFC 6750 §3.1 challenge); a request without a token is 401.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import {
  gatehouseExpress,
  requireRole as expressRole,
  requireScope as expressScope,
} from '@gatehouse/resource-server/express';
import {
  gatehouseFastify,
  requireRole as fastifyRole,
  requireScope as fastifyScope,
} from '@gatehouse/resource-server/fastify';
import { assignRole, createRole } from '../../server/src/access/index.js';
import { CLI_ACTOR } from '../../server/src/audit/audit.js';
import { startGatehouse, type Gatehouse } from './_gatehouse.js';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Invoices', version: '1' },
  security: [{ gatehouse: ['invoices:read'] }],
  paths: {
    '/invoices': { get: { responses: { '200': { description: 'ok' } } } },
    '/invoices/export': { get: { responses: { '200': { description: 'ok' } } } },
  },
};

type Get = (
  path: string,
  token?: string,
) => Promise<{ status: number; body: Record<string, unknown>; challenge: string | null }>;

let gatehouse: Gatehouse;
let clerk: string;
let outsider: string;

before(async () => {
  gatehouse = await startGatehouse();
  await gatehouse.addClient('app', ['invoices:read', 'invoices:export']);
  const now = Math.floor(Date.now() / 1000);
  const { audit } = gatehouse.server.context;
  // A token for Gatehouse itself carries the REST API's roles (`/v2`) and the server-wide ones.
  await createRole(audit, { name: 'billing-clerk' }, now, CLI_ACTOR);
  outsider = (await gatehouse.issueGrant('app', ['invoices:read'])).access_token;
  await assignRole(audit, { name: 'billing-clerk' }, { user: 'alice' }, now, CLI_ACTOR);
  clerk = (await gatehouse.issueGrant('app', ['invoices:read'])).access_token;
});
after(() => gatehouse?.close());

function contract(name: string, start: () => Promise<{ get: Get; close: () => Promise<void> }>) {
  describe(`requireRole and requireScope on ${name}`, () => {
    let get: Get;
    let close: () => Promise<void>;
    before(async () => ({ get, close } = await start()));
    after(() => close?.());

    it('passes a token whose user holds one of the roles', async () => {
      assert.equal((await get('/invoices', clerk)).status, 200);
    });

    it('answers 403 insufficient_role to a token whose user holds none, naming the roles', async () => {
      const answer = await get('/invoices', outsider);
      assert.equal(answer.status, 403);
      assert.equal(answer.body['type'], `${gatehouse.issuer}/problems/insufficient-role`);
      assert.equal(answer.body['detail'], "This operation needs the role 'billing-clerk' or 'billing-admin'.");
    });

    it('answers 403 insufficient_scope with the RFC 6750 §3.1 challenge to a token without the scope', async () => {
      const answer = await get('/invoices/export', clerk);
      assert.equal(answer.status, 403);
      assert.equal(answer.body['type'], `${gatehouse.issuer}/problems/insufficient-scope`);
      assert.equal(answer.body['detail'], "This operation needs the scope 'invoices:export'.");
      assert.equal(answer.challenge, 'Bearer realm="api", error="insufficient_scope", scope="invoices:export"');
    });

    it('answers 401 to a request without a token (the document declares the operation)', async () => {
      assert.equal((await get('/invoices')).status, 401);
    });
  });
}

async function fetchFrom(url: string): Promise<Get> {
  return async (path, token) => {
    const response = await fetch(`${url}${path}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      challenge: response.headers.get('www-authenticate'),
    };
  };
}

contract('Express', async () => {
  const app = express();
  app.use(gatehouseExpress({ issuer: gatehouse.issuer, openapi: DOCUMENT }));
  app.get('/invoices', expressRole('billing-clerk', 'billing-admin'), (_req, res) => res.json({ items: [] }));
  app.get('/invoices/export', expressScope('invoices:export'), (_req, res) => res.json({ items: [] }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    get: await fetchFrom(`http://127.0.0.1:${port}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});

contract('Fastify', async () => {
  const app = Fastify({ logger: false });
  await app.register(gatehouseFastify, { issuer: gatehouse.issuer, openapi: DOCUMENT });
  app.get('/invoices', { preHandler: fastifyRole('billing-clerk', 'billing-admin') }, () => ({ items: [] }));
  app.get('/invoices/export', { preHandler: fastifyScope('invoices:export') }, () => ({ items: [] }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { get: await fetchFrom(url), close: () => app.close() };
});
