// The load generator: one process, run by run.mjs once per measurement, apart from the server it
// loads. Closed loop: N keep-alive connections (one undici Client each, no pipelining), and each
// connection sends its next request only when the previous one has been answered and read whole.
// A chain (a refresh token rotated on every request) lives on one connection, so the token of the
// next request comes from the previous response.
//
// Input: one JSON argument (see `Plan` in run.mjs). Output: one JSON line on stdout with the
// requests and latency percentiles of the measured window. Any unexpected answer stops the run with
// exit code 1 and the answer on stderr: a benchmark of error paths measures nothing.
import { createHash } from 'node:crypto';
import { Client } from 'undici';

const plan = JSON.parse(process.argv[2]);
const REQUESTS = { refresh, refreshReplay, refreshDpop, introspect, restCreate, restMissing, restCreateDpop };
const makeRequest = REQUESTS[plan.kind];
if (!makeRequest) fail(`unknown kind ${plan.kind}`);

/** grant_type=refresh_token with rotation: the answer's refresh_token is the chain's next token. */
function refresh(chain) {
  return {
    request: { method: 'POST', path: plan.path, headers: { ...formHeaders(), authorization: plan.authorization },
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(chain.token)}` },
    expect: 200,
    check(body, full) {
      const json = JSON.parse(body);
      if (typeof json.refresh_token !== 'string' || typeof json.access_token !== 'string') fail('no refresh_token/access_token in a refresh answer', body);
      if (full && json.token_type?.toLowerCase() !== 'bearer') fail('token_type is not Bearer', body);
      chain.token = json.refresh_token;
    },
  };
}

/** The DPoP key of the chains (RFC 9449), for the DPoP scenarios: an ES256 key the setup bound the tokens to. */
// A peer that checks no proof (plain Fastify) gets proofs of a key made here: the same requests.
const dpopJwk = plan.dpopJwk ?? (plan.kind.endsWith('Dpop') ? await newDpopJwk() : undefined);
const dpopKey = dpopJwk
  ? await crypto.subtle.importKey('jwk', dpopJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
  : undefined;
const dpopHeader = dpopJwk
  ? Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: 'EC', crv: 'P-256', x: dpopJwk.x, y: dpopJwk.y } })).toString('base64url')
  : '';

async function newDpopJwk() {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  return crypto.subtle.exportKey('jwk', pair.privateKey);
}
let jti = 0;

/** A fresh proof for one request (RFC 9449 §4.2), signed by the client side: its cost is the load generator's. */
async function dpopProof(htm, htu, accessToken) {
  const claims = { htm, htu, iat: Math.floor(Date.now() / 1000), jti: `${process.pid}.${++jti}` };
  if (accessToken) claims.ath = createHash('sha256').update(accessToken).digest('base64url');
  const input = `${dpopHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, dpopKey, Buffer.from(input));
  return `${input}.${Buffer.from(signature).toString('base64url')}`;
}

/** grant_type=refresh_token of a public client whose tokens are bound to the DPoP key, a proof with each. */
async function refreshDpop(chain) {
  return {
    request: { method: 'POST', path: plan.path, headers: { ...formHeaders(), dpop: await dpopProof('POST', plan.htu) },
      body: `grant_type=refresh_token&client_id=${plan.clientId}&refresh_token=${encodeURIComponent(chain.token)}` },
    expect: 200,
    check(body, full) {
      const json = JSON.parse(body);
      if (typeof json.refresh_token !== 'string' || typeof json.access_token !== 'string') fail('no refresh_token/access_token in a refresh answer', body);
      if (full && json.token_type !== 'DPoP') fail('token_type is not DPoP', body);
      chain.token = json.refresh_token;
    },
  };
}

/** restCreate with a DPoP-bound token and a proof (RFC 9449 §7.1). */
async function restCreateDpop(chain) {
  const made = restCreate(chain);
  const token = plan.dpopAccessToken ?? 'x'.repeat(560);
  made.request.headers = { ...made.request.headers, authorization: `DPoP ${token}`,
    dpop: await dpopProof('POST', `${plan.origin}${plan.path}`, token) };
  return made;
}

/**
 * Pairs of refreshes with one token, for a client with a replay window: the first rotates it, the
 * second (a replay inside the window) must get the byte-identical successor; then the chain goes on.
 */
function refreshReplay(chain) {
  const replaying = chain.previous !== undefined;
  return {
    request: { method: 'POST', path: plan.path, headers: { ...formHeaders(), authorization: plan.authorization },
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(replaying ? chain.previous : chain.token)}` },
    expect: 200,
    check(body) {
      const json = JSON.parse(body);
      if (typeof json.refresh_token !== 'string' || typeof json.access_token !== 'string') fail('no refresh_token/access_token in a refresh answer', body);
      if (replaying) {
        if (json.refresh_token !== chain.token) fail('a replay inside the window did not get the same successor', body);
        chain.previous = undefined;
      } else {
        chain.previous = chain.token;
        chain.token = json.refresh_token;
      }
    },
  };
}

/** RFC 7662 introspection of the chain's refresh token, which stays live. */
function introspect(chain) {
  return {
    request: { method: 'POST', path: plan.path, headers: { ...formHeaders(), authorization: plan.authorization },
      body: `token=${encodeURIComponent(chain.token)}&token_type_hint=refresh_token` },
    expect: 200,
    check(body) {
      if (JSON.parse(body).active !== true) fail('the live refresh token was introspected as inactive', body);
    },
  };
}

function restCreate(chain) {
  chain.n += 1;
  return {
    request: { method: 'POST', path: plan.path, headers: { ...jsonHeaders() },
      body: JSON.stringify({ email: `ada.${chain.id}.${chain.n}@example.com`, name: 'Ada Lovelace' }) },
    expect: 201,
    check(body, full) {
      if (full && JSON.parse(body).email !== `ada.${chain.id}.${chain.n}@example.com`) fail('201 without the created record', body);
    },
  };
}

function restMissing() {
  return {
    request: { method: 'POST', path: plan.path, headers: { ...jsonHeaders() }, body: '{"name":"Ada Lovelace"}' },
    expect: 400,
    check(body, full) {
      if (full && JSON.parse(body).detail !== "Missing required field 'email' in request body") fail('400 without the contract message', body);
    },
  };
}

function formHeaders() {
  return { 'content-type': 'application/x-www-form-urlencoded' };
}

function jsonHeaders() {
  return { 'content-type': 'application/json', ...(plan.authorization ? { authorization: plan.authorization } : {}) };
}

function fail(message, body) {
  process.stderr.write(`loadgen: ${message}${body === undefined ? '' : `\n${String(body).slice(0, 500)}`}\n`);
  process.exit(1);
}

// --- the closed loop ---------------------------------------------------------------------------

const start = performance.now();
const measureFrom = start + plan.warmupMs;
const measureTo = measureFrom + plan.durationMs;
// Latencies of the requests that completed inside the measured window, in microseconds.
const samples = new Float64Array(Math.max(1, plan.maxSamples ?? 2_000_000));
let count = 0;

async function runConnection(id) {
  const client = new Client(plan.origin, { pipelining: 1, keepAliveTimeout: 30_000 });
  const chain = { id, token: plan.tokens?.[id % plan.tokens.length], n: 0 };
  let first = true;
  try {
    for (;;) {
      let made = makeRequest(chain);
      if (made instanceof Promise) made = await made;
      const { request, expect, check } = made;
      const sent = process.hrtime.bigint();
      const { statusCode, body } = await client.request(request);
      const text = await body.text();
      const tookUs = Number(process.hrtime.bigint() - sent) / 1000;
      if (statusCode !== expect) fail(`${request.method} ${request.path} answered ${statusCode}, expected ${expect}`, text);
      // Every answer is checked; the first of each connection in full.
      check(text, first);
      first = false;
      const now = performance.now();
      if (now >= measureTo) break;
      if (now >= measureFrom && count < samples.length) samples[count++] = tookUs;
    }
  } finally {
    await client.close();
  }
}

await Promise.all(Array.from({ length: plan.connections }, (_, i) => runConnection(i)));

const measured = samples.subarray(0, count).sort();
const percentile = (p) => (count === 0 ? NaN : measured[Math.min(count - 1, Math.floor((p / 100) * count))] / 1000);
process.stdout.write(`${JSON.stringify({
  requests: count, seconds: plan.durationMs / 1000, rps: count / (plan.durationMs / 1000),
  p50Ms: percentile(50), p99Ms: percentile(99),
})}\n`);
