import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAUTH_REASONS, PROBLEMS } from '@gatehouse/contract';
import { configFromEnv } from '../src/config.js';
import { RATE_LIMIT_NAMES } from '../src/rate-limits.js';
import { api, clientWithToken } from './_api.js';
import { addTestUser, authorizationQuery, callbackParams, PageBrowser, pkce, CALLBACK } from './_authorize.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

async function scrape(
  server: TestServer,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${server.url}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The value of one exposition line, by its name and labels as rendered. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics (Prometheus text format)', () => {
  let server: TestServer;
  let client: TestClient;

  before(async () => {
    server = await startTestServer();
    client = await server.addClient({ id: 'svc', refreshTokenTtl: 60 });
  });
  after(() => server.close());

  it('counts invalid_grant refusals by cause', async () => {
    const expiring = await server.issueGrant(client);
    server.clock.advance(61);
    assert.equal((await refresh(server, client, expiring.refresh_token)).body.error, 'invalid_grant');

    const revoked = await server.issueGrant(client);
    assert.equal((await server.post('/revoke', { token: revoked.refresh_token }, { as: client })).status, 200);
    assert.equal((await refresh(server, client, revoked.refresh_token)).body.error, 'invalid_grant');

    const used = await server.issueGrant(client);
    assert.equal((await refresh(server, client, used.refresh_token)).status, 200);
    assert.equal((await refresh(server, client, used.refresh_token)).body.error, 'invalid_grant');

    const { status, type, text } = await scrape(server);
    assert.equal(status, 200);
    assert.match(type, /^text\/plain; version=0\.0\.4/);
    assert.match(text, /^# HELP gatehouse_oauth_errors_total /m);
    assert.match(text, /^# TYPE gatehouse_oauth_errors_total counter$/m);
    assert.equal(sample(text, 'gatehouse_oauth_errors_total{error="invalid_grant",reason="refresh_token_expired"}'), 1);
    assert.equal(sample(text, 'gatehouse_oauth_errors_total{error="invalid_grant",reason="refresh_token_revoked"}'), 1);
    assert.equal(
      sample(text, 'gatehouse_oauth_errors_total{error="invalid_grant",reason="refresh_token_past_rotation_limit"}'),
      1,
    );
  });

  it('counts problems by code, e.g. a POST missing a required field', async () => {
    const { access_token } = await clientWithToken(server, 'writer', ['contacts:read', 'contacts:write']);
    const before = sample((await scrape(server)).text, 'gatehouse_problems_total{code="missing_required_field"}') ?? 0;
    assert.equal((await api(server, access_token).post('/v2/contacts', {})).status, 400);
    assert.equal(
      sample((await scrape(server)).text, 'gatehouse_problems_total{code="missing_required_field"}'),
      before + 1,
    );
  });

  it('has request latency histograms labelled by route pattern, never the raw URL', async () => {
    const { access_token } = await clientWithToken(server, 'reader', ['contacts:read']);
    assert.equal((await api(server, access_token).get('/v2/contacts/no-such-contact-123')).status, 404);
    const { text } = await scrape(server);
    assert.match(text, /^# TYPE gatehouse_http_request_duration_seconds histogram$/m);
    const series = 'route="/v2/contacts/:id",method="GET",status_class="4xx"';
    assert.match(
      text,
      new RegExp(`^gatehouse_http_request_duration_seconds_bucket\\{${series},le="0\\.005"\\} \\d+$`, 'm'),
    );
    assert.equal(sample(text, `gatehouse_http_request_duration_seconds_bucket{${series},le="+Inf"}`), 1);
    assert.equal(sample(text, `gatehouse_http_request_duration_seconds_count{${series}}`), 1);
    assert.ok((sample(text, `gatehouse_http_request_duration_seconds_sum{${series}}`) ?? -1) >= 0);
    assert.match(text, /route="\/token",method="POST",status_class="2xx"/);
    assert.ok(!text.includes('no-such-contact-123'));
  });

  it('has a series at zero from the start for every catalog reason, problem, rate limit and COMMIT-in-doubt outcome, and the process metrics', async () => {
    const fresh = await startTestServer();
    try {
      const { text } = await scrape(fresh);
      for (const [reason, { error }] of Object.entries(OAUTH_REASONS))
        assert.equal(sample(text, `gatehouse_oauth_errors_total{error="${error}",reason="${reason}"}`), 0, reason);
      for (const code of Object.keys(PROBLEMS))
        assert.equal(sample(text, `gatehouse_problems_total{code="${code}"}`), 0, code);
      for (const limit of RATE_LIMIT_NAMES)
        assert.equal(sample(text, `gatehouse_rate_limit_refusals_total{limit="${limit}"}`), 0, limit);
      for (const reason of ['wrong_password', 'unknown_user', 'user_disabled', 'rate_limited'])
        assert.equal(sample(text, `gatehouse_sign_in_failures_total{reason="${reason}"}`), 0, reason);
      for (const outcome of ['committed', 'aborted', 'unknown'])
        assert.equal(sample(text, `gatehouse_store_commits_in_doubt_total{outcome="${outcome}"}`), 0, outcome);
      // prom-client's default process and Node.js metrics.
      assert.ok((sample(text, 'process_cpu_user_seconds_total') ?? 0) > 0);
      assert.ok((sample(text, 'nodejs_heap_size_used_bytes') ?? 0) > 0);
      assert.match(text, /^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
      // Two servers in one process: each counts its own requests (the first one's above are not here).
      assert.ok(!text.includes('missing_required_field"} 1'));
      assert.doesNotMatch(text, /route="\/v2\/contacts\/:id"/);
    } finally {
      await fresh.close();
    }
  });

  it('counts the errors /authorize sends to the redirect URI, and failed sign-ins by reason', async () => {
    const app = await server.addClient({ id: 'web', redirectUris: [CALLBACK] });
    await addTestUser(server);
    const reason = 'gatehouse_oauth_errors_total{error="unsupported_response_type",reason="response_type_unsupported"}';
    const before = sample((await scrape(server)).text, reason) ?? -1;
    const browser = new PageBrowser(server);
    const refused = await browser.authorize(authorizationQuery(app.id, pkce().challenge, { response_type: 'token' }));
    assert.equal(callbackParams(refused.location).error, 'unsupported_response_type');
    assert.equal(sample((await scrape(server)).text, reason), before + 1);

    const page = await browser.authorize(authorizationQuery(app.id, pkce().challenge));
    assert.equal((await browser.login(page, 'alice', 'wrong password')).status, 401);
    assert.equal((await browser.login(page, 'nobody', 'wrong password')).status, 401);
    const { text } = await scrape(server);
    assert.equal(sample(text, 'gatehouse_sign_in_failures_total{reason="wrong_password"}'), 1);
    assert.equal(sample(text, 'gatehouse_sign_in_failures_total{reason="unknown_user"}'), 1);
    assert.equal(sample(text, 'gatehouse_problems_total{code="login_failed"}'), 2);
  });

  it('is refused (404 problem) to a non-loopback caller; any loopback caller (127.0.0.0/8, ::1) gets it', async () => {
    const proxied = await startTestServer({ trustProxy: '127.0.0.1' });
    try {
      const remote = await scrape(proxied, { 'x-forwarded-for': '203.0.113.7' });
      assert.equal(remote.status, 404);
      assert.match(remote.type, /^application\/problem\+json/);
      assert.equal((await scrape(proxied, { 'x-forwarded-for': '127.0.0.1' })).status, 200);
      // Loopback is all of 127.0.0.0/8 and ::1 (primitives/loopback.ts), not one address.
      assert.equal((await scrape(proxied, { 'x-forwarded-for': '127.0.0.2' })).status, 200);
      assert.equal((await scrape(proxied, { 'x-forwarded-for': '::1' })).status, 200);
    } finally {
      await proxied.close();
    }
  });

  it('with METRICS_TOKEN set, needs that Bearer token from anyone', async () => {
    const guarded = await startTestServer({ trustProxy: '127.0.0.1', metricsToken: 'scrape-secret' });
    try {
      assert.equal((await scrape(guarded)).status, 404, 'loopback alone is not enough once a token is set');
      assert.equal((await scrape(guarded, { authorization: 'Bearer wrong' })).status, 404);
      assert.equal(
        (await scrape(guarded, { 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer scrape-secret' })).status,
        200,
      );
    } finally {
      await guarded.close();
    }
  });

  it('a METRICS_TOKEN no bearer header can carry (RFC 6750 §2.1 b64token) stops the start, without showing it', () => {
    for (const token of ['has space', 'quote"d', 'pass!word', 'é'])
      assert.throws(
        () => configFromEnv({ METRICS_TOKEN: token }),
        (error: Error) =>
          error.message.startsWith('METRICS_TOKEN must be a bearer token') && !error.message.includes(token),
      );
    assert.equal(configFromEnv({ METRICS_TOKEN: 'abc-DEF_1.2~3+4/5==' }).metricsToken, 'abc-DEF_1.2~3+4/5==');
  });

  it('the scrape reads its bearer header by RFC 6750 §2.1, as every bearer header: the scheme in any case, 1*SP', async () => {
    const guarded = await startTestServer({ metricsToken: 'scrape-secret' });
    try {
      for (const authorization of ['bearer scrape-secret', 'Bearer   scrape-secret'])
        assert.equal((await scrape(guarded, { authorization })).status, 200, authorization);
      for (const authorization of ['Bearer "scrape-secret"', 'Bearer', 'Basic scrape-secret', 'Bearerscrape-secret'])
        assert.equal((await scrape(guarded, { authorization })).status, 404, authorization);
    } finally {
      await guarded.close();
    }
  });
});
