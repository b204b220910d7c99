// The load generator: one process, run by run.mjs once per measurement, apart from the server it
// loads. Closed loop: N keep-alive connections (one undici Client each, no pipelining), and each
// connection sends its next request only when the previous one has been answered and read whole.
// A chain (a refresh token rotated on every request) lives on one connection, so the token of the
// next request comes from the previous response.
//
// Input: one JSON argument (see `Plan` in run.mjs). Output: one JSON line on stdout with the
// requests and latency percentiles of the measured window. Any unexpected answer stops the run with
// exit code 1 and the answer on stderr: a benchmark of error paths measures nothing.
import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'undici';

const plan = JSON.parse(process.argv[2]);
const REQUESTS = { refresh, refreshReplay, refreshDpop, introspect, restCreate, restMissing, restCreateDpop, clientCredentials, signIn, codeFlow,
  consoleUsers, consoleSearch, consoleOverview, consoleGroups };
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
      // An OpenID grant's refresh answers a new ID token every time (OIDC Core §12.2, as Gatehouse serves it).
      if (plan.expectIdToken && typeof json.id_token !== 'string') fail('no id_token in an OpenID grant\'s refresh answer', body);
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

/** The console's users page, first page: GET /admin/v1/users?limit=20 with an admin token. */
function consoleUsers() {
  return {
    request: { method: 'GET', path: `${plan.path}?limit=20`, headers: { accept: 'application/json', authorization: plan.authorization } },
    expect: 200,
    check(body, full) {
      if (full && JSON.parse(body).items?.length !== 20) fail('a first page of users that is not full', body);
    },
  };
}

/** The console's search by username: GET /admin/v1/users?q=…&limit=20, each time another part of a username. */
function consoleSearch(chain) {
  chain.n += 1;
  const part = String((chain.id * 7919 + chain.n * 104729) % 100_000).padStart(5, '0');
  return {
    request: { method: 'GET', path: `${plan.path}?q=${part}&limit=20`, headers: { accept: 'application/json', authorization: plan.authorization } },
    expect: 200,
    check(body, full) {
      if (full && !JSON.parse(body).items?.some((u) => u.username.includes(part))) fail(`no user found for ${part}`, body);
    },
  };
}

/** The console's dashboard: GET /admin/v1/overview, whose counts must see every user. */
function consoleOverview() {
  return {
    request: { method: 'GET', path: plan.path, headers: { accept: 'application/json', authorization: plan.authorization } },
    expect: 200,
    check(body, full) {
      if (full && !(JSON.parse(body).counts?.users >= 100_000)) fail('an overview that does not count the users', body);
    },
  };
}

/** The console's groups page, first page: GET /admin/v1/groups?limit=20 with an admin token. */
function consoleGroups() {
  return {
    request: { method: 'GET', path: `${plan.path}?limit=20`, headers: { accept: 'application/json', authorization: plan.authorization } },
    expect: 200,
    check(body, full) {
      if (full && JSON.parse(body).items?.length !== 20) fail('a first page of groups that is not full', body);
    },
  };
}

/** RFC 6749 §4.4: a client credentials grant of a confidential client. */
function clientCredentials() {
  return {
    request: { method: 'POST', path: plan.path, headers: { ...formHeaders(), authorization: plan.authorization },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(plan.scope)}` },
    expect: 200,
    check(body) {
      if (typeof JSON.parse(body).access_token !== 'string') fail('no access_token in a client credentials answer', body);
    },
  };
}

/**
 * A browser's password sign-in, one new browser (no cookie) per sign-in: GET /authorize (the sign-in
 * page and its session cookie), then POST /login with the page's hidden fields, the username and the
 * password (303 back to /authorize). Only the POST is counted: sign-ins per second.
 */
function signIn(chain) {
  return browserSteps(chain, ['authorize', 'login'], 'login');
}

/**
 * The whole authorization code flow of a public client with PKCE (RFC 7636), one new browser per
 * flow: GET /authorize, POST /login, GET /authorize (the consent page), POST /consent (303 to the
 * redirect URI with the code), POST /token (the code exchanged). Only the exchange is counted:
 * complete flows per second.
 */
function codeFlow(chain) {
  return browserSteps(chain, ['authorize', 'login', 'authorize', 'consent', 'exchange'], 'exchange');
}

function browserSteps(chain, steps, counted) {
  if (chain.step === undefined || chain.step >= steps.length) {
    const verifier = randomBytes(32).toString('base64url');
    chain.flow = { verifier, challenge: createHash('sha256').update(verifier).digest('base64url'), cookie: undefined, fields: {}, code: undefined };
    chain.step = 0;
  }
  const flow = chain.flow;
  const name = steps[chain.step];
  chain.step += 1;
  const cookie = flow.cookie ? { cookie: flow.cookie } : {};
  const page = (expect, then) => ({ expect, counted: name === counted, startsFlow: chain.step === 1, check: then, cookieOf: (value) => { flow.cookie = value; } });
  if (name === 'authorize') {
    const query = new URLSearchParams({
      response_type: 'code', client_id: plan.publicClientId, redirect_uri: plan.redirectUri, scope: plan.scope,
      state: randomBytes(8).toString('hex'), code_challenge: flow.challenge, code_challenge_method: 'S256',
    });
    // After the sign-in, a consent the user gave before is remembered: the answer is then the
    // redirect with the code (303), and the consent step is skipped.
    return { request: { method: 'GET', path: `/authorize?${query}`, headers: { ...cookie } },
      ...page(flow.fields.csrf_token && steps.includes('consent') ? [200, 302, 303] : 200, (body, _full, headers) => {
        if (headers.location === undefined) return void (flow.fields = hiddenFields(body));
        flow.code = new URL(String(headers.location), plan.origin).searchParams.get('code');
        if (!flow.code) fail('/authorize redirected without a code', String(headers.location));
        chain.step = steps.indexOf('exchange');
      }) };
  }
  if (name === 'login' || name === 'consent') {
    const form = new URLSearchParams({ ...flow.fields, ...(name === 'login' ? { username: plan.username, password: plan.password } : { decision: 'allow' }) });
    return { request: { method: 'POST', path: `/${name}`, headers: { ...formHeaders(), ...cookie }, body: form.toString() },
      ...page(303, (_body, _full, headers) => {
        const location = String(headers.location ?? '');
        if (name === 'consent') {
          flow.code = new URL(location, plan.origin).searchParams.get('code');
          if (!flow.code) fail('consent did not redirect with a code', location);
        } else if (!location.startsWith('/authorize')) fail('sign-in did not go back to /authorize', location);
      }) };
  }
  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: plan.publicClientId, code: flow.code, redirect_uri: plan.redirectUri, code_verifier: flow.verifier });
  return { request: { method: 'POST', path: '/token', headers: formHeaders(), body: form.toString() },
    ...page(200, (body) => { if (typeof JSON.parse(body).refresh_token !== 'string') fail('no refresh_token from the code exchange', body); }) };
}

/** The hidden inputs of a page's form, decoded (the pages escape `&` as `&#38;`). */
function hiddenFields(html) {
  const fields = {};
  for (const [input] of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    const value = /value="([^"]*)"/.exec(input)?.[1] ?? '';
    if (name) fields[name] = value.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))).replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  }
  if (!fields.csrf_token) fail('a page without a form', html);
  return fields;
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
// Every counted request answered, warm-up and measured window alike (for per-request store figures).
let total = 0;

async function runConnection(id) {
  // Several servers (processes sharing one database): the connections take them in turn.
  const origin = plan.origins?.[id % plan.origins.length] ?? plan.origin;
  const client = new Client(origin, { pipelining: 1, keepAliveTimeout: 30_000 });
  const chain = { id, token: plan.tokens?.[id % plan.tokens.length], n: 0 };
  let first = true;
  let flowStarted = 0n;
  try {
    for (;;) {
      let made = makeRequest(chain);
      if (made instanceof Promise) made = await made;
      const { request, expect, check, counted = true, startsFlow = true, cookieOf } = made;
      const sent = process.hrtime.bigint();
      if (startsFlow) flowStarted = sent;
      const { statusCode, headers, body } = await client.request(request);
      const text = await body.text();
      // A flow of several requests is one sample, timed from its first request to its counted one's answer.
      const tookUs = Number(process.hrtime.bigint() - flowStarted) / 1000;
      if (Array.isArray(expect) ? !expect.includes(statusCode) : statusCode !== expect) fail(`${request.method} ${request.path} answered ${statusCode}, expected ${expect}`, text);
      const setCookie = headers['set-cookie'];
      if (cookieOf && setCookie) cookieOf(String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0]);
      // Every answer is checked; the first of each connection in full.
      check(text, first, headers);
      first = false;
      if (counted) total += 1;
      const now = performance.now();
      if (now >= measureTo) break;
      if (counted && now >= measureFrom && count < samples.length) samples[count++] = tookUs;
    }
  } finally {
    await client.close();
  }
}

await Promise.all(Array.from({ length: plan.connections }, (_, i) => runConnection(i)));

const measured = samples.subarray(0, count).sort();
const percentile = (p) => (count === 0 ? NaN : measured[Math.min(count - 1, Math.floor((p / 100) * count))] / 1000);
process.stdout.write(`${JSON.stringify({
  requests: count, total, seconds: plan.durationMs / 1000, rps: count / (plan.durationMs / 1000),
  p50Ms: percentile(50), p99Ms: percentile(99),
})}\n`);
