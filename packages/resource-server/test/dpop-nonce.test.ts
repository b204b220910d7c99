/**
 * Server-provided nonces at the kit (RFC 9449 §8, §9): with `dpop.nonce`, a proof without the API's
 * current nonce is refused with 401 use_dpop_nonce and the nonce in DPoP-Nonce; nonces rotate by time
 * slot without state, so nodes sharing a secret honour each other's; the SDK follows them. Both
 * adapters, against a real Gatehouse.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { ApiClient, TokenManager } from '@gatehouse/client';
import { createResourceServer, type DpopNonceOptions, type ResourceServerOptions } from '@gatehouse/resource-server';
import { gatehouseExpress } from '@gatehouse/resource-server/express';
import { gatehouseFastify } from '@gatehouse/resource-server/fastify';
import { startGatehouse, type Gatehouse } from './_gatehouse.js';

/** A collection as the SDK's ApiClient reads documents (only GET /notes is served). */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1' },
  security: [{ gatehouse: ['notes:read'] }],
  paths: {
    '/notes': {
      get: { responses: { '200': { description: 'the notes' } } },
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
    '/notes/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'a note' } },
      },
    },
  },
};
const TTL = 15;
const SECRET = 'a secret every node of the notes API shares, 32+ bytes';

/**
 * The kits' clock, epoch seconds: real time moved to just after a slot starts, then on by whole
 * slots. Proofs carry the real time as `iat`; two slots stay inside their 60 s window (§4.3 step 11).
 */
class SlotClock {
  offset = 0;
  now = (): number => Math.floor(Date.now() / 1000) + this.offset;
  startOfSlot(): void {
    this.offset = 0;
    this.offset = TTL - (this.now() % TTL) + 1;
  }
  nextSlot(): void {
    this.offset += TTL;
  }
}

interface Key {
  proof(htm: string, htu: string, accessToken?: string, claims?: { nonce?: string; jti?: string }): Promise<string>;
}

async function dpopKey(): Promise<Key & { jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return {
    jwk,
    proof: (htm, htu, accessToken, { nonce, jti = randomUUID() } = {}) =>
      new SignJWT({
        htm,
        htu,
        jti,
        ...(accessToken === undefined ? {} : { ath: createHash('sha256').update(accessToken).digest('base64url') }),
        ...(nonce === undefined ? {} : { nonce }),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .sign(privateKey),
  };
}

describe('the kit with server-provided DPoP nonces (RFC 9449 §9)', () => {
  let gatehouse: Gatehouse;
  let client: { id: string; secret: string };
  const clock = new SlotClock();
  const servers: (() => Promise<unknown>)[] = [];

  before(async () => {
    gatehouse = await startGatehouse();
    client = await gatehouse.addClient('notes-app', ['notes:read']);
  });
  after(async () => {
    await Promise.all(servers.map((close) => close()));
    await gatehouse.close();
  });

  function kitOptions(nonce: DpopNonceOptions | undefined): ResourceServerOptions {
    return {
      issuer: gatehouse.issuer,
      openapi: DOCUMENT,
      dpop: { now: clock.now, ...(nonce === undefined ? {} : { nonce }) },
    };
  }

  /** An API behind the Fastify plugin; its URL. */
  async function fastifyApi(nonce: DpopNonceOptions | undefined): Promise<string> {
    const app = Fastify({ logger: false });
    await app.register(gatehouseFastify, kitOptions(nonce));
    app.get('/notes', () => ({ notes: [] }));
    app.get('/openapi.json', () => DOCUMENT);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    servers.push(() => app.close());
    return url;
  }

  /** The same API behind the Express middleware. */
  async function expressApi(nonce: DpopNonceOptions | undefined): Promise<string> {
    const app = express();
    app.use(gatehouseExpress(kitOptions(nonce)));
    app.get('/notes', (_req, res) => res.json({ notes: [] }));
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    servers.push(() => new Promise((resolve) => listening.close(resolve)));
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }

  async function token(key?: Key & { jwk: JWK }): Promise<string> {
    const response = await fetch(`${gatehouse.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        ...(key === undefined ? {} : { dpop: await key.proof('POST', `${gatehouse.issuer}/token`) }),
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'notes:read' }).toString(),
    });
    const body = (await response.json()) as { access_token: string; token_type: string };
    assert.equal(body.token_type, key === undefined ? 'Bearer' : 'DPoP');
    return body.access_token;
  }

  const get = (url: string, accessToken: string, proof?: string) =>
    fetch(url, {
      headers: {
        authorization: proof === undefined ? `Bearer ${accessToken}` : `DPoP ${accessToken}`,
        ...(proof === undefined ? {} : { dpop: proof }),
      },
    });

  async function assertNonceRequired(response: Response): Promise<string> {
    assert.equal(response.status, 401, await response.clone().text());
    assert.match(
      response.headers.get('www-authenticate') ?? '',
      /^DPoP realm="api", algs="[^"]+", error="use_dpop_nonce", error_description="[^"]+"$/,
    );
    const body = (await response.json()) as { type: string; status: number };
    assert.equal(body.type, `${gatehouse.issuer}/problems/use-dpop-nonce`);
    return response.headers.get('dpop-nonce') ?? assert.fail('the refusal carries the nonce to use (§9)');
  }

  for (const [adapter, api] of [
    ['Fastify', fastifyApi],
    ['Express', expressApi],
  ] as const)
    it(`${adapter}: a proof without the nonce gets 401 use_dpop_nonce with DPoP-Nonce; with it, 200; last slot's nonce still, with the new one handed on; older or unknown ones refused (§8, §9)`, async () => {
      const url = `${await api({ secret: SECRET, ttlSeconds: TTL })}/notes`;
      const key = await dpopKey();
      const accessToken = await token(key);
      clock.startOfSlot();

      const jti = randomUUID();
      const first = await assertNonceRequired(
        await get(url, accessToken, await key.proof('GET', url, accessToken, { jti })),
      );
      // Refused for its nonce, the proof was not spent: the same jti with the nonce is accepted (§4.3 step 10, §11.1).
      const accepted = await get(url, accessToken, await key.proof('GET', url, accessToken, { jti, nonce: first }));
      assert.equal(accepted.status, 200, await accepted.clone().text());
      assert.equal(accepted.headers.get('dpop-nonce'), null, 'the proof has the current nonce: nothing new to hand on');

      clock.nextSlot();
      const stillGood = await get(url, accessToken, await key.proof('GET', url, accessToken, { nonce: first }));
      assert.equal(stillGood.status, 200, await stillGood.clone().text());
      const second = stillGood.headers.get('dpop-nonce') ?? assert.fail('the new nonce is handed on (§8.2)');
      assert.notEqual(second, first);

      clock.nextSlot();
      const stale = await get(url, accessToken, await key.proof('GET', url, accessToken, { nonce: first }));
      const third = await assertNonceRequired(stale);
      assert.notEqual(third, second);
      const unknown = await get(url, accessToken, await key.proof('GET', url, accessToken, { nonce: 'made-up' }));
      assert.equal(await assertNonceRequired(unknown), third);
      const current = await get(url, accessToken, await key.proof('GET', url, accessToken, { nonce: second }));
      assert.equal(current.status, 200);

      // Bearer tokens carry no proof: nonces do not concern them.
      const bearer = await get(url, await token());
      assert.equal(bearer.status, 200);
      assert.equal(bearer.headers.get('dpop-nonce'), null);
    });

  it('nodes sharing a secret honour each other’s nonces; a node with another secret refuses them', async () => {
    const [one, two, other] = await Promise.all([
      fastifyApi({ secret: SECRET, ttlSeconds: TTL }),
      expressApi({ secret: SECRET, ttlSeconds: TTL }),
      fastifyApi({ secret: `another ${SECRET}`, ttlSeconds: TTL }),
    ]);
    const key = await dpopKey();
    const accessToken = await token(key);
    clock.startOfSlot();
    const fromOne = await assertNonceRequired(
      await get(`${one}/notes`, accessToken, await key.proof('GET', `${one}/notes`, accessToken)),
    );
    const atTwo = await get(
      `${two}/notes`,
      accessToken,
      await key.proof('GET', `${two}/notes`, accessToken, { nonce: fromOne }),
    );
    assert.equal(atTwo.status, 200, await atTwo.clone().text());
    const atOther = await get(
      `${other}/notes`,
      accessToken,
      await key.proof('GET', `${other}/notes`, accessToken, { nonce: fromOne }),
    );
    assert.notEqual(await assertNonceRequired(atOther), fromOne);
  });

  it('a secret under 32 bytes, or a ttl that is not a whole number of seconds, is refused at start', () => {
    assert.throws(() => createResourceServer(kitOptions({ secret: 'short' })), /at least 32 bytes/);
    assert.throws(() => createResourceServer(kitOptions({ secret: SECRET, ttlSeconds: 0.5 })), /ttlSeconds/);
    assert.ok(createResourceServer(kitOptions({ secret: new Uint8Array(32) })).admitsWithHeaders);
  });

  it('without `nonce` no nonce is asked for nor given', async () => {
    const url = `${await fastifyApi(undefined)}/notes`;
    const key = await dpopKey();
    const accessToken = await token(key);
    const response = await get(url, accessToken, await key.proof('GET', url, accessToken));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('dpop-nonce'), null);
  });

  it('the SDK retries once on use_dpop_nonce and then follows the nonces the kit hands on: no second 401 (§8.2, §9)', async () => {
    const base = await fastifyApi({ secret: SECRET, ttlSeconds: TTL });
    const statuses: number[] = [];
    const counting = async (input: string, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (new URL(input).pathname === '/notes') statuses.push(response.status);
      return response;
    };
    const manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: client.id,
      clientSecret: client.secret,
      clientCredentials: true,
      scope: 'notes:read',
      dpop: true,
    });
    const api = await ApiClient.fromServer({
      baseUrl: base,
      tokens: manager,
      fetch: counting,
      retry: { baseDelayMs: 1 },
    });
    clock.startOfSlot();
    assert.equal((await api.request({ method: 'GET', path: '/notes' })).status, 200);
    assert.deepEqual(statuses, [401, 200], 'one use_dpop_nonce, then one retry with the nonce');
    for (let slot = 0; slot < 2; slot++) {
      clock.nextSlot();
      assert.equal((await api.request({ method: 'GET', path: '/notes' })).status, 200);
    }
    assert.deepEqual(statuses, [401, 200, 200, 200], 'the nonce handed on with a 200 is used next');
  });
});
