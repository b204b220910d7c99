import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_RATE_LIMITS, NO_RATE_LIMITS, parseRatePolicy, rateLimitsFromEnv } from '../src/rate-limits.js';
import { addressKey, RateLimiter, usernameKey, type Charge } from '../src/abuse/rate-limiter.js';
import { gcraStep, type RatePolicy } from '../src/store/rate-limits.js';
import { MemoryRateLimitStore } from '../src/store/sqlite/rate-limit-store.js';
import { addTestUser, authorizationQuery, CALLBACK, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError, assertOkJson } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const MINUTE = 60_000;

describe('the rate-limit algorithm (GCRA)', () => {
  const policy: RatePolicy = { limit: 3, periodMs: MINUTE };

  it('a quiet bucket allows a burst of `limit`, then refuses, saying when the next request is allowed', () => {
    let tat: number | undefined;
    for (let i = 0; i < 3; i++) {
      const step = gcraStep(tat, 0, policy);
      assert.equal(step.allowed, true);
      tat = step.tat;
    }
    const refused = gcraStep(tat, 0, policy);
    assert.deepEqual(refused, { allowed: false, tat, retryAfterMs: 20_000 });
    assert.equal(gcraStep(tat, 19_999, policy).allowed, false);
    assert.equal(gcraStep(tat, 20_000, policy).allowed, true);
  });

  it('property: whatever the arrival times, allowed requests in any span never exceed limit + span / interval', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 200 }),
        (limit, periodMs, gaps) => {
          const p = { limit, periodMs };
          let now = 0;
          let tat: number | undefined;
          const allowedAt: number[] = [];
          for (const gap of gaps) {
            now += gap;
            const step = gcraStep(tat, now, p);
            tat = step.tat;
            if (step.allowed) allowedAt.push(now);
            else assert.ok(step.retryAfterMs > 0 && step.retryAfterMs <= periodMs);
          }
          const interval = periodMs / limit;
          for (let i = 0; i < allowedAt.length; i++) {
            for (let j = i; j < allowedAt.length; j++) {
              const span = (allowedAt[j] as number) - (allowedAt[i] as number);
              assert.ok(j - i + 1 <= limit + span / interval + 1e-9, `${j - i + 1} allowed within ${span} ms`);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: a client that waits the Retry-After it was given is allowed; one that keeps to the rate is never refused', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 100 }),
        (limit, periodMs, requests) => {
          const p = { limit, periodMs };
          let tat: number | undefined;
          let now = 0;
          for (let i = 0; i < requests; i++) {
            const step = gcraStep(tat, now, p);
            if (!step.allowed) {
              now += step.retryAfterMs;
              const retried = gcraStep(tat, now, p);
              assert.equal(retried.allowed, true);
              tat = retried.tat;
            } else {
              tat = step.tat;
            }
          }
          let steady: number | undefined;
          for (let i = 0; i < requests; i++) {
            const step = gcraStep(steady, i * (periodMs / limit), p);
            assert.equal(step.allowed, true);
            steady = step.tat;
          }
        },
      ),
    );
  });

  it('the memory store forgets full buckets first and never holds more than its cap', async () => {
    const store = new MemoryRateLimitStore(100);
    const p = { limit: 1, periodMs: 1000 };
    for (let i = 0; i < 1000; i++) await store.consume([{ bucket: `b${i}`, policy: p }], i);
    assert.ok(store.size <= 100, `${store.size} buckets`);
    // The newest bucket is remembered: charging it again at once is refused.
    assert.deepEqual(await store.consume([{ bucket: 'b999', policy: p }], 999), [1000]);
    await store.sweep(10_000);
    assert.equal(store.size, 0);
  });

  it('a refusal is remembered by the limiter until it ends: no store round trip meanwhile', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore();
    let asked = 0;
    const counting = {
      ...store,
      consume: (...args: Parameters<MemoryRateLimitStore['consume']>) => {
        asked++;
        return store.consume(...args);
      },
      peek: store.peek.bind(store),
      sweep: store.sweep.bind(store),
    };
    const limiter = new RateLimiter(
      counting,
      { ...NO_RATE_LIMITS, token_address: { limit: 1, periodMs: MINUTE } },
      () => now,
    );
    assert.equal(await limiter.consume([['token_address', 'a']]), 0);
    assert.equal(await limiter.consume([['token_address', 'a']]), 60);
    assert.equal(await limiter.consume([['token_address', 'a']]), 60);
    assert.equal(asked, 2);
    assert.equal(limiter.knownRefusal([['token_address', 'a']]), 60);
    now = 59_001;
    assert.equal(limiter.knownRefusal([['token_address', 'a']]), 1, 'whole seconds, rounded up');
    now = MINUTE;
    assert.equal(await limiter.consume([['token_address', 'a']]), 0);
    assert.equal(await limiter.consume([['token_client', 'off']]), 0, 'a limit that is off charges nothing');
  });

  it('property: consumeAtOnce charges, refuses and remembers exactly as consume does, over any sequence of charges', async () => {
    const policies = {
      ...NO_RATE_LIMITS,
      token_address: { limit: 3, periodMs: MINUTE },
      token_client: { limit: 2, periodMs: 10_000 },
    };
    const charge = fc.record({
      at: fc.integer({ min: 0, max: 20_000 }),
      address: fc.constantFrom('a', 'b'),
      client: fc.constantFrom('x', 'y', 'off'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(charge, { maxLength: 40 }), async (charges) => {
        let now = 0;
        const awaited = new RateLimiter(new MemoryRateLimitStore(), policies, () => now);
        const atOnce = new RateLimiter(new MemoryRateLimitStore(), policies, () => now);
        for (const { at, address, client } of charges) {
          now += at;
          const asked: Charge[] = [
            ['token_address', address],
            client === 'off' ? ['introspect_client', client] : ['token_client', client],
          ];
          assert.equal(atOnce.consumeAtOnce(asked), await awaited.consume(asked));
          assert.equal(atOnce.knownRefusal(asked), awaited.knownRefusal(asked));
        }
        assert.deepEqual([...atOnce.refusals()], [...awaited.refusals()]);
      }),
    );
  });

  it('consumeAtOnce answers undefined over a store that must be awaited (PostgreSQL’s), charging nothing', async () => {
    const memory = new MemoryRateLimitStore();
    const awaitedOnly = {
      consume: memory.consume.bind(memory),
      peek: memory.peek.bind(memory),
      sweep: memory.sweep.bind(memory),
    };
    const limiter = new RateLimiter(
      awaitedOnly,
      { ...NO_RATE_LIMITS, token_address: { limit: 1, periodMs: MINUTE } },
      () => 0,
    );
    assert.equal(limiter.consumeAtOnce([['token_address', 'a']]), undefined);
    assert.equal(await limiter.consume([['token_address', 'a']]), 0, 'the bucket was not charged');
  });
});

describe('rate-limit configuration', () => {
  it('reads <count>/<s|min|h> and off from RATE_LIMIT_<NAME>, over the defaults', () => {
    const policies = rateLimitsFromEnv({ RATE_LIMIT_TOKEN_ADDRESS: '30/s', RATE_LIMIT_LOGIN_CLIENT: 'off' });
    assert.deepEqual(policies.token_address, { limit: 30, periodMs: 1000 });
    assert.equal(policies.login_client, null);
    assert.deepEqual(policies.introspect_client, DEFAULT_RATE_LIMITS.introspect_client);
    assert.deepEqual(rateLimitsFromEnv({ RATE_LIMITS: 'off', RATE_LIMIT_LOGIN_ADDRESS: '5/h' }), {
      ...NO_RATE_LIMITS,
      login_address: { limit: 5, periodMs: 3_600_000 },
    });
  });

  it('refuses what it cannot read, naming the variable', () => {
    for (const value of ['0/min', '10', '10/day', '-1/s', '1.5/s', '10 per minute'])
      assert.throws(() => parseRatePolicy(value), /<count>\/<s\|min\|h>/);
    assert.throws(() => rateLimitsFromEnv({ RATE_LIMIT_TOKEN_CLIENT: 'lots' }), /^Error: RATE_LIMIT_TOKEN_CLIENT: /);
    assert.throws(() => rateLimitsFromEnv({ RATE_LIMITS: 'maybe' }), /RATE_LIMITS is on or off/);
  });

  it('an IPv6 client is limited by its /64; an IPv4-mapped address is its IPv4 address', () => {
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), addressKey('2001:db8:1:2:bbbb::2'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
    assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(addressKey('192.0.2.7'), '192.0.2.7');
  });

  it('one IPv4 address written in any of its forms (X-Forwarded-For) is one bucket', () => {
    for (const form of ['192.0.2.07', '0xc0.0.2.7', '192.0.519', '3221225991'])
      assert.equal(addressKey(form), '192.0.2.7');
  });

  it('usernames are bucketed by digest, case-insensitively: what was typed is never stored', () => {
    assert.equal(usernameKey('Alice'), usernameKey('alice'));
    assert.doesNotMatch(usernameKey('my secret password'), /secret|password/);
  });
});

for (const dialect of DIALECTS)
  describe(`rate limits on /token, /introspect, /revoke and /login [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let other: TestClient;
    const clientCredentials = { grant_type: 'client_credentials' };

    before(async () => {
      server = await startTestServer({
        dialect,
        rateLimits: {
          token_client: { limit: 3, periodMs: MINUTE },
          token_address: { limit: 8, periodMs: MINUTE },
          introspect_client: { limit: 2, periodMs: MINUTE },
          introspect_address: { limit: 100, periodMs: MINUTE },
          revoke_client: { limit: 100, periodMs: MINUTE },
          revoke_address: { limit: 6, periodMs: MINUTE },
          login_address: { limit: 3, periodMs: MINUTE },
          login_client: { limit: 100, periodMs: MINUTE },
        },
      });
      app = await server.addClient({ id: 'app' });
      other = await server.addClient({ id: 'other' });
      await server.addClient({ id: 'web', public: true, redirectUris: [CALLBACK] });
      await addTestUser(server, 'alice');
    });
    after(() => server.close());
    // Every test starts with every bucket full.
    beforeEach(() => server.clock.advance(3600));

    async function assertRateLimited(response: Response, retryAfter: string): Promise<void> {
      assert.equal(response.headers.get('retry-after'), retryAfter);
      await assertOAuthError(response, {
        status: 429,
        error: 'temporarily_unavailable',
        description: 'too many requests; retry after the Retry-After delay',
      });
    }

    it('a client past its limit gets 429 temporarily_unavailable with Retry-After; another client is not held back', async () => {
      for (let i = 0; i < 3; i++) await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
      await assertRateLimited(await server.post('/token', clientCredentials, { as: app }), '20');
      await assertOkJson(await server.post('/token', clientCredentials, { as: other }));
      server.clock.advance(20);
      await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
      await assertRateLimited(await server.post('/token', clientCredentials, { as: app }), '20');
    });

    it("failed client authentications count for the address only: without the secret, nobody uses up a client's budget", async () => {
      for (let i = 0; i < 5; i++) {
        await assertOAuthError(await server.post('/token', clientCredentials, { as: { id: 'app', secret: 'wrong' } }), {
          error: 'invalid_client',
        });
      }
      for (let i = 0; i < 3; i++) await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
      // 8 requests from this address: the next is refused, even with a wrong secret, before it is checked.
      await assertRateLimited(await server.post('/token', clientCredentials, { as: other }), '8');
      await assertRateLimited(
        await server.post('/token', clientCredentials, { as: { id: 'app', secret: 'wrong' } }),
        '8',
      );
    });

    it('a refused request is not counted: waiting the Retry-After is always enough', async () => {
      for (let i = 0; i < 3; i++) await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
      for (let i = 0; i < 5; i++)
        await assertRateLimited(await server.post('/token', clientCredentials, { as: app }), '20');
      server.clock.advance(20);
      await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
    });

    it('/introspect has limits of its own', async () => {
      await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
      for (let i = 0; i < 2; i++)
        assert.deepEqual(await assertOkJson(await server.post('/introspect', { token: 'unknown' }, { as: app })), {
          active: false,
        });
      await assertRateLimited(await server.post('/introspect', { token: 'unknown' }, { as: app }), '30');
      await assertOkJson(await server.post('/token', clientCredentials, { as: app }));
    });

    it('RFC 6749 §2.3: a flood of wrong secrets at /revoke is answered 429 with Retry-After, and the audit trail stays bounded', async () => {
      const failures = async (): Promise<number> =>
        (await server.context.store.listAuditEvents({ event: 'client_authentication_failed', limit: 10_000 })).length;
      const before = await failures();
      const wrong = { as: { id: 'app', secret: 'wrong' } };
      const answers: Response[] = [];
      for (let i = 0; i < 50; i++) answers.push(await server.post('/revoke', { token: `guess-${i}` }, wrong));
      const statuses = answers.map((r) => r.status);
      assert.deepEqual(statuses.slice(0, 6), [401, 401, 401, 401, 401, 401], 'the address budget is spent on failures');
      for (const refused of answers.slice(6)) await assertRateLimited(refused, '10');
      // The guess that crosses the limit is checked and recorded; every later one is refused before its
      // secret is checked: no store read and no audit row per guess, so the trail holds limit + 1 rows.
      assert.equal((await failures()) - before, 7);
      // The right secret from the same address waits too; a client's own budget is separate.
      await assertRateLimited(await server.post('/revoke', { token: 'unknown' }, { as: app }), '10');
      server.clock.advance(10);
      assert.equal((await server.post('/revoke', { token: 'unknown' }, { as: app })).status, 200);
    });

    it('sign-in attempts are limited per address: past the limit the form is answered 429 with Retry-After', async () => {
      const query = authorizationQuery('web', pkce().challenge);
      for (let i = 0; i < 3; i++) {
        const browser = new PageBrowser(server);
        assert.equal((await browser.login(await browser.authorize(query), 'alice', 'wrong password')).status, 401);
      }
      const browser = new PageBrowser(server);
      const refused = await browser.login(await browser.authorize(query), 'alice', PASSWORD);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('retry-after'), '20');
      assert.match(refused.html, /Too many sign-in attempts/);
    });

    it('the metrics count refusals by reason', async () => {
      for (let i = 0; i < 4; i++) await server.post('/token', clientCredentials, { as: app });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      assert.match(
        metrics,
        /gatehouse_oauth_errors_total\{error="temporarily_unavailable",reason="rate_limited"\} [1-9]/,
      );
      assert.match(metrics, /gatehouse_rate_limit_refusals_total\{limit="token_client"\} [1-9]/);
      assert.match(metrics, /gatehouse_rate_limit_refusals_total\{limit="login_address"\} 1\n/);
    });
  });
