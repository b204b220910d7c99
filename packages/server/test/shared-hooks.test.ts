import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { addSharedHooks } from '../src/http/shared-hooks.js';

describe('addSharedHooks: the work every request shares, one hook per stage', () => {
  let app: FastifyInstance;
  let url: string;
  const seen: string[] = [];

  before(async () => {
    app = Fastify();
    addSharedHooks(app, [
      {
        onRequest: () => {
          seen.push('count');
          return undefined;
        },
        onResponse: () => void seen.push('uncount'),
      },
      {
        onRequest: (request) => {
          seen.push('check');
          return request.headers['x-refuse'] === undefined ? undefined : new Error('refused by the check');
        },
      },
      {
        onRequest: () => {
          seen.push('after the check');
          return undefined;
        },
        onResponse: () => void seen.push('metrics'),
      },
    ]);
    app.setErrorHandler((error, _request, reply) => reply.code(400).send({ refused: String(error) }));
    app.get('/', async () => {
      seen.push('handler');
      return { ok: true };
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => app.close());

  /** What the shared parts and the handler did for one request, once its answer is read. */
  async function request(headers: Record<string, string> = {}): Promise<{ status: number; seen: string[] }> {
    seen.length = 0;
    const response = await fetch(url, { headers });
    await response.text();
    // onResponse runs once the answer is written: by the time the client has read it whole, or soon after.
    for (let i = 0; i < 50 && !seen.includes('metrics'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return { status: response.status, seen: [...seen] };
  }

  it('runs the onRequest parts in order before the handler, and the onResponse parts in order after it', async () => {
    assert.deepEqual(await request(), {
      status: 200,
      seen: ['count', 'check', 'after the check', 'handler', 'uncount', 'metrics'],
    });
  });

  it('an error from a part ends the request there: later parts and the handler do not run, every onResponse part does', async () => {
    assert.deepEqual(await request({ 'x-refuse': '1' }), {
      status: 400,
      seen: ['count', 'check', 'uncount', 'metrics'],
    });
  });

  it('adds one onRequest and one onResponse hook, whatever the number of parts', () => {
    const counted = Fastify();
    const added: string[] = [];
    counted.addHook = (name: string) => {
      added.push(name);
      return counted;
    };
    addSharedHooks(counted, [
      { onRequest: () => undefined, onResponse: () => {} },
      { onRequest: () => undefined },
      { onResponse: () => {} },
    ]);
    assert.deepEqual(added, ['onRequest', 'onResponse']);
    addSharedHooks(counted, [{}]);
    assert.deepEqual(added, ['onRequest', 'onResponse'], 'no hook for a stage without parts');
  });
});
