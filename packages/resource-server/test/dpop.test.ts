/**
 * The kit accepts DPoP-bound tokens (RFC 9449 §7) through both adapters, which set the request URL a
 * proof's `htu` names (the configured public origin behind a proxy), against a real Gatehouse.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { gatehouseExpress } from '@gatehouse/resource-server/express';
import { gatehouseFastify } from '@gatehouse/resource-server/fastify';
import { startGatehouse, type Gatehouse } from './_gatehouse.js';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  security: [{ gatehouse: ['notes:read'] }],
  paths: { '/notes': { get: { responses: { '200': { description: 'the notes' } } } } },
};
const PUBLIC_ORIGIN = 'https://api.example';

interface Key {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
  proof(htm: string, htu: string, accessToken?: string, jti?: string): Promise<string>;
}

async function dpopKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return {
    privateKey,
    jwk,
    proof: (htm, htu, accessToken, jti = randomUUID()) =>
      new SignJWT({
        htm,
        htu,
        jti,
        ...(accessToken === undefined ? {} : { ath: createHash('sha256').update(accessToken).digest('base64url') }),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .sign(privateKey),
  };
}

describe('the kit with DPoP-bound tokens (RFC 9449 §7)', () => {
  let gatehouse: Gatehouse;
  let client: { id: string; secret: string };
  const servers: { url: string; close(): Promise<unknown> }[] = [];
  let fastifyUrl: string;
  let expressUrl: string;

  before(async () => {
    gatehouse = await startGatehouse();
    client = await gatehouse.addClient('notes-app', ['notes:read']);
    const fastify = Fastify({ logger: false });
    await fastify.register(gatehouseFastify, { issuer: gatehouse.issuer, openapi: DOCUMENT });
    fastify.get('/notes', (request) => ({ jkt: request.gatehouse?.token?.cnf?.jkt }));
    fastifyUrl = await fastify.listen({ port: 0, host: '127.0.0.1' });
    servers.push({ url: fastifyUrl, close: () => fastify.close() });
    const app = express();
    app.use(gatehouseExpress({ issuer: gatehouse.issuer, openapi: DOCUMENT, publicOrigin: PUBLIC_ORIGIN }));
    app.get('/notes', (_req, res) => res.json({ ok: true }));
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    expressUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    servers.push({ url: expressUrl, close: () => new Promise((resolve) => listening.close(resolve)) });
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await gatehouse.close();
  });

  async function boundToken(key: Key): Promise<string> {
    const response = await fetch(`${gatehouse.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        dpop: await key.proof('POST', `${gatehouse.issuer}/token`),
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'notes:read' }).toString(),
    });
    const body = (await response.json()) as { access_token: string; token_type: string };
    assert.equal(body.token_type, 'DPoP');
    return body.access_token;
  }

  const get = (url: string, authorization: string, proof?: string) =>
    fetch(url, { headers: { authorization, ...(proof === undefined ? {} : { dpop: proof }) } });

  it('Fastify: a proof for the request URL is accepted, its replay, a bound token as Bearer, a wrong ath are refused', async () => {
    const key = await dpopKey();
    const token = await boundToken(key);
    const url = `${fastifyUrl}/notes`;
    const proof = await key.proof('GET', url, token);
    const ok = await get(url, `DPoP ${token}`, proof);
    assert.equal(ok.status, 200, await ok.clone().text());
    assert.equal(((await ok.json()) as { jkt: string }).jkt, await calculateJwkThumbprint(key.jwk));
    const replay = await get(url, `DPoP ${token}`, proof); // §11.1
    assert.equal(replay.status, 401);
    assert.match(
      replay.headers.get('www-authenticate') ?? '',
      /^DPoP realm="api", algs="[^"]+", error="invalid_dpop_proof"/,
    );
    assert.equal(((await replay.json()) as { type: string }).type, `${gatehouse.issuer}/problems/invalid-dpop-proof`);
    const asBearer = await get(url, `Bearer ${token}`); // §7.2
    assert.equal(asBearer.status, 401);
    assert.match(asBearer.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_token"/);
    const wrongAth = await get(url, `DPoP ${token}`, await key.proof('GET', url, 'another token'));
    assert.equal(wrongAth.status, 401);
    const wrongMethod = await get(url, `DPoP ${token}`, await key.proof('POST', url, token));
    assert.equal(wrongMethod.status, 401);
  });

  it("a token verified before (found without parsing the header) still needs its own key's proof for this request (RFC 9449 §7.1)", async () => {
    const key = await dpopKey();
    const other = await dpopKey();
    const token = await boundToken(key);
    const url = `${fastifyUrl}/notes`;
    const first = await get(url, `DPoP ${token}`, await key.proof('GET', url, token));
    assert.equal(first.status, 200, await first.clone().text());
    const refusals: Record<string, Response> = {
      'no proof': await get(url, `DPoP ${token}`),
      "another key's proof": await get(url, `DPoP ${token}`, await other.proof('GET', url, token)),
      'a proof for another URL': await get(url, `DPoP ${token}`, await key.proof('GET', `${url}/x`, token)),
      'a proof without ath': await get(url, `DPoP ${token}`, await key.proof('GET', url)),
    };
    for (const [name, refused] of Object.entries(refusals)) {
      assert.equal(refused.status, 401, name);
      assert.match(refused.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_dpop_proof"/, name);
    }
    // The scheme is case-insensitive (RFC 9110 §11.1): the header parsed, the same checks.
    const lower = await get(url, `dpop ${token}`, await key.proof('GET', url, token));
    assert.equal(lower.status, 200, await lower.clone().text());
    // A token that is not DPoP-bound, verified before as Bearer, is refused as DPoP (§7.1).
    const response = await fetch(`${gatehouse.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'notes:read' }).toString(),
    });
    const bearer = ((await response.json()) as { access_token: string }).access_token;
    assert.equal((await get(url, `Bearer ${bearer}`)).status, 200);
    const unbound = await get(url, `DPoP ${bearer}`, await key.proof('GET', url, bearer));
    assert.equal(unbound.status, 401);
    assert.match(unbound.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_token"/);
  });

  it('Express behind a proxy: htu is the configured public origin, not the address it listens on (RFC 9449 §4.3)', async () => {
    const key = await dpopKey();
    const token = await boundToken(key);
    const local = `${expressUrl}/notes`;
    const refused = await get(local, `DPoP ${token}`, await key.proof('GET', local, token));
    assert.equal(refused.status, 401);
    const accepted = await get(local, `DPoP ${token}`, await key.proof('GET', `${PUBLIC_ORIGIN}/notes?x=1`, token));
    assert.equal(accepted.status, 200, await accepted.clone().text());
  });
});
