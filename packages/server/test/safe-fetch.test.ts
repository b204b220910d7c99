import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import {
  isAllowedAddress,
  safeFetch,
  SafeFetchError,
  type Resolver,
  type SafeFetchOptions,
} from '../src/outbound/safe-fetch.js';
import { startTlsServer, TEST_CA, TEST_HOST, type TlsServer } from './_tls.js';
import { until } from './_until.js';

const LOOPBACK_ALLOWED = ['127.0.0.1/32'];

function resolverTo(...addresses: string[]): Resolver & { calls: number } {
  const resolver = Object.assign(
    async () => {
      resolver.calls += 1;
      return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
    },
    { calls: 0 },
  );
  return resolver;
}

const base = (resolve: Resolver, extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  maxBytes: 64 * 1024,
  timeoutMs: 2000,
  ca: TEST_CA,
  resolve,
  ...extra,
});

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof SafeFetchError, String(error));
    return error.reason;
  }
  assert.fail('the fetch was not refused');
}

async function withServer(
  handler: Parameters<typeof startTlsServer>[0],
  body: (server: TlsServer, hits: () => number) => Promise<void>,
): Promise<void> {
  let hits = 0;
  const server = await startTlsServer((request, response) => {
    hits += 1;
    handler(request, response);
  });
  try {
    await body(server, () => hits);
  } finally {
    await server.close();
  }
}

const json = (_: unknown, response: ServerResponse): void => {
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
  response.end('{"ok":true}');
};

describe('safe outbound fetch (SSRF, RFC 9700 §4.20)', () => {
  it('fetches over https from an allowed address, pinned to the address it resolved once', async () => {
    await withServer(json, async (server) => {
      const resolve = resolverTo('127.0.0.1');
      const response = await safeFetch(`${server.origin}/doc`, base(resolve, { allowAddresses: LOOPBACK_ALLOWED }));
      assert.equal(response.status, 200);
      assert.equal(response.address, '127.0.0.1');
      assert.deepEqual(JSON.parse(response.body.toString()), { ok: true });
      assert.equal(response.headers['cache-control'], 'max-age=60');
      assert.equal(resolve.calls, 1);
    });
  });

  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '::1',
    '::ffff:10.0.0.1',
    '100.64.0.1',
    'fd00::1',
  ]) {
    it(`refuses a host that resolves to ${address}, and connects to nothing`, async () => {
      await withServer(json, async (server, hits) => {
        const reason = await refusal(safeFetch(`${server.origin}/doc`, base(resolverTo(address))));
        assert.equal(reason, 'address_not_allowed');
        assert.equal(hits(), 0);
      });
    });
  }

  it('refuses a host with one public and one private address (every answer must pass)', async () => {
    const reason = await refusal(safeFetch(`https://${TEST_HOST}/doc`, base(resolverTo('93.184.215.14', '10.0.0.7'))));
    assert.equal(reason, 'address_not_allowed');
  });

  it('refuses IP literals in the URL: https://127.0.0.1 and https://[::1]', async () => {
    await withServer(json, async (server, hits) => {
      const resolve = resolverTo('93.184.215.14');
      assert.equal(
        await refusal(safeFetch(`https://127.0.0.1:${server.port}/doc`, base(resolve))),
        'address_not_allowed',
      );
      assert.equal(await refusal(safeFetch(`https://[::1]:${server.port}/doc`, base(resolve))), 'address_not_allowed');
      assert.equal(resolve.calls, 0);
      assert.equal(hits(), 0);
    });
  });

  it('refuses http unless allowed, and URLs with credentials', async () => {
    const resolve = resolverTo('93.184.215.14');
    assert.equal(await refusal(safeFetch('http://agent.example.test/doc', base(resolve))), 'scheme_not_allowed');
    assert.equal(await refusal(safeFetch('file:///etc/passwd', base(resolve))), 'scheme_not_allowed');
    assert.equal(await refusal(safeFetch('https://u:p@agent.example.test/doc', base(resolve))), 'invalid_url');
    assert.equal(resolve.calls, 0);
  });

  it('does not follow a redirect (here to the cloud metadata address)', async () => {
    await withServer(
      (_, response) => {
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        response.end();
      },
      async (server) => {
        const opts = base(resolverTo('127.0.0.1'), { allowAddresses: LOOPBACK_ALLOWED });
        assert.equal(await refusal(safeFetch(`${server.origin}/doc`, opts)), 'redirect_not_followed');
      },
    );
  });

  it('refuses a 10 MB document declared by Content-Length without reading it', async () => {
    let written = 0;
    await withServer(
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
        written += 1;
        response.write('{');
      },
      async (server) => {
        const opts = base(resolverTo('127.0.0.1'), { allowAddresses: LOOPBACK_ALLOWED });
        assert.equal(await refusal(safeFetch(`${server.origin}/doc`, opts)), 'too_large');
        assert.equal(written, 1);
      },
    );
  });

  it('stops reading a streamed 10 MB document at the byte limit and cuts the connection', async () => {
    let sent = 0;
    let finished = false;
    let closed = false;
    await withServer(
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = (): void => {
          while (sent < 10 * 1024 * 1024) {
            if (response.destroyed) return;
            sent += chunk.length;
            if (!response.write(chunk)) {
              response.once('drain', pump);
              return;
            }
          }
          finished = true;
          response.end();
        };
        response.on('close', () => (closed = true));
        pump();
      },
      async (server) => {
        const opts = base(resolverTo('127.0.0.1'), { allowAddresses: LOOPBACK_ALLOWED, maxBytes: 64 * 1024 });
        assert.equal(await refusal(safeFetch(`${server.origin}/doc`, opts)), 'too_large');
        await until(() => closed, 'the server sees the connection cut');
        assert.equal(finished, false, 'the server could not send the whole document');
        assert.ok(sent < 10 * 1024 * 1024, `sent ${sent} bytes`);
      },
    );
  });

  it('gives up on a slow document at the total time limit', async () => {
    await withServer(
      (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{');
        const timer = setInterval(() => response.write(' '), 50);
        response.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const opts = base(resolverTo('127.0.0.1'), { allowAddresses: LOOPBACK_ALLOWED, timeoutMs: 400 });
        const started = Date.now();
        assert.equal(await refusal(safeFetch(`${server.origin}/doc`, opts)), 'timeout');
        assert.ok(Date.now() - started < 3000);
      },
    );
  });

  it('gives up on a resolver that never answers at the total time limit', async () => {
    const hanging: Resolver = () => new Promise(() => undefined);
    assert.equal(
      await refusal(safeFetch('https://agent.example.test/doc', base(hanging, { timeoutMs: 200 }))),
      'timeout',
    );
  });

  it('verifies the certificate: without the test CA the connection fails', async () => {
    await withServer(json, async (server, hits) => {
      const opts = base(resolverTo('127.0.0.1'), { allowAddresses: LOOPBACK_ALLOWED, ca: undefined });
      assert.equal(await refusal(safeFetch(`${server.origin}/doc`, opts)), 'connection_failed');
      assert.equal(hits(), 0);
    });
  });

  it('classifies addresses: only public unicast passes, or an operator-allowed range', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'not-an-ip',
    ]) {
      assert.equal(isAllowedAddress(address), false, address);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111'])
      assert.equal(isAllowedAddress(address), true, address);
    assert.equal(isAllowedAddress('10.1.2.3', ['10.1.0.0/16']), true);
    assert.equal(isAllowedAddress('10.2.2.3', ['10.1.0.0/16']), false);
    assert.equal(isAllowedAddress('::1', ['::1']), true);
  });
});
