// The floor: the least a durable, signed refresh-token rotation (and an introspection) can do on one
// Node process. What Gatehouse does beyond it — a framework, limits, audit, metrics, the error
// catalog, replay windows, OpenID — is what the ratio "× floor" prices.
//   node:http; Basic client authentication (the secret's SHA-256 digest compared in constant time);
//   the form parsed with URLSearchParams; SQLite (better-sqlite3) in WAL mode with synchronous=FULL,
//   one transaction (one fsync'd commit) per event-loop turn for every refresh that arrived in it:
//   read the token and its grant, mark it used, insert its successor, move the family's head; an
//   ES256 JWT access token signed with node:crypto; a JSON answer.
//   POST /token       grant_type=refresh_token (rotation; a used, expired or unknown token: invalid_grant)
//   POST /introspect  RFC 7662: client authentication, one indexed read, a JSON answer
//
// Argument: the number of chains. Prints one JSON line: port, client credentials, the tokens.
// With FLOOR_HTTP=fastify (servers/floor-fastify.mjs) the same work is served by a plain Fastify app
// instead of node:http, written the way Fastify's documentation writes routes: a form parser, two
// routes, `reply.send` of an object. Beside the floor it prices the framework alone; beside Gatehouse,
// what Gatehouse does beyond the framework.
// Two more floors, for the scenarios whose Gatehouse does more cryptographic work than a plain refresh:
//   FLOOR_WORK=id-token (servers/floor-oidc.mjs): each refresh also answers an RS256 ID token (OIDC
//     Core §12.2), signed on libuv's thread pool (node:crypto's `sign` with a callback), as Gatehouse
//     signs it; the answer leaves once both tokens are signed.
//   FLOOR_WORK=dpop (servers/floor-dpop.mjs): a public client whose tokens are bound to a DPoP key
//     (RFC 9449 §5): per refresh one ES256 proof verified (node:crypto, the key imported once per key,
//     RFC 9449 §4.3: typ, alg, jwk, htm, htu, iat, the signature, its thumbprint against the grant's
//     binding) and its `jti` recorded in the refresh's own transaction (durable; a seen `jti` refused).
import { createHash, generateKeyPairSync, randomBytes, sign, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkedProof, thumbprint } from '../lib/dpop-proof.mjs';

const chains = Number(process.argv[2] ?? 64);
const CLIENT_ID = 'bench';
const CLIENT_SECRET = randomBytes(32).toString('base64url');
const SECRET_DIGEST = createHash('sha256').update(CLIENT_SECRET).digest();
const ISSUER = 'http://localhost';
const SCOPE = 'contacts:read';
const ACCESS_TTL = 300;
const REFRESH_TTL = 30 * 24 * 3600;
const BODY_LIMIT = 64 * 1024;
const FASTIFY = process.env.FLOOR_HTTP === 'fastify';
const ID_TOKEN = process.env.FLOOR_WORK === 'id-token';
const DPOP = process.env.FLOOR_WORK === 'dpop';
const DPOP_HTU = 'http://localhost/token';

const folder = mkdtempSync(join(tmpdir(), 'gatehouse-floor-'));
const db = new Database(join(folder, 'floor.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`
  CREATE TABLE grants (id TEXT PRIMARY KEY, client_id TEXT NOT NULL, subject TEXT NOT NULL, scope TEXT NOT NULL,
    head TEXT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0, dpop_jkt TEXT);
  CREATE TABLE refresh_tokens (digest BLOB PRIMARY KEY, grant_id TEXT NOT NULL, expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
  CREATE TABLE dpop_proofs (jti TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID;
`);
const readToken = db.prepare(
  `SELECT t.grant_id, t.expires_at, t.used, g.client_id, g.subject, g.scope, g.revoked, g.dpop_jkt
     FROM refresh_tokens t JOIN grants g ON g.id = t.grant_id WHERE t.digest = ?`,
);
const noteProof = db.prepare('INSERT INTO dpop_proofs (jti, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING');
const useToken = db.prepare('UPDATE refresh_tokens SET used = 1 WHERE digest = ? AND used = 0');
const insertToken = db.prepare('INSERT INTO refresh_tokens (digest, grant_id, expires_at) VALUES (?, ?, ?)');
const moveHead = db.prepare('UPDATE grants SET head = ? WHERE id = ?');
const insertGrant = db.prepare('INSERT INTO grants (id, client_id, subject, scope, head, dpop_jkt) VALUES (?, ?, ?, ?, ?, ?)');

const digestOf = (token) => createHash('sha256').update(token).digest();
const newToken = () => randomBytes(32).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

// The DPoP key the chains are bound to (its private half goes to the load generator) and its RFC 7638 thumbprint.
const dpopJwk = DPOP ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) : undefined;
const boundJkt = DPOP ? thumbprint(dpopJwk) : null;

const tokens = [];
db.transaction(() => {
  for (let i = 0; i < chains; i++) {
    const token = newToken();
    const grantId = randomBytes(16).toString('hex');
    insertGrant.run(grantId, CLIENT_ID, `user-${i}`, SCOPE, digestOf(token).toString('hex'), boundJkt);
    insertToken.run(digestOf(token), grantId, now() + REFRESH_TTL);
    tokens.push(token);
  }
})();

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const HEADER = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: 'floor' })).toString('base64url');

function accessToken(subject, scope, grantId, jkt) {
  const iat = now();
  const claims = { iss: ISSUER, sub: subject, aud: ISSUER, client_id: CLIENT_ID, scope, jti: randomBytes(16).toString('hex'), iat, exp: iat + ACCESS_TTL, grant_id: grantId,
    ...(jkt ? { cnf: { jkt } } : {}) };
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

// FLOOR_WORK=id-token: an RSA-2048 key, and an ID token per refresh signed on libuv's thread pool.
const rsaKey = ID_TOKEN ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey : undefined;
const ID_HEADER = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'floor-rsa' })).toString('base64url');
const AUTH_TIME = now();

/** OIDC Core §2, §12.2: the refresh's ID token, with `at_hash` of its access token (§3.1.3.6). */
function idToken(subject, access, done) {
  const iat = now();
  const half = createHash('sha256').update(access).digest().subarray(0, 16).toString('base64url');
  const claims = { iss: ISSUER, sub: subject, aud: CLIENT_ID, iat, exp: iat + ACCESS_TTL, auth_time: AUTH_TIME, at_hash: half };
  const input = `${ID_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  sign('sha256', Buffer.from(input), rsaKey, (error, signature) => done(error, `${input}.${signature?.toString('base64url')}`));
}


/** RFC 6749 §2.3.1 Basic: the client id and the secret's digest compared in constant time. */
function authenticated(header) {
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const id = decodeURIComponent(decoded.slice(0, colon));
  const secret = decodeURIComponent(decoded.slice(colon + 1));
  return timingSafeEqual(createHash('sha256').update(secret).digest(), SECRET_DIGEST) && id === CLIENT_ID;
}

// The group commit: every refresh of one event-loop turn in one transaction, answered after it commits.
let batch = [];
function enqueue(work) {
  if (batch.length === 0) setImmediate(commit);
  batch.push(work);
}
const rotateAll = db.transaction((works) => works.map((work) => work.run()));
function commit() {
  const works = batch;
  batch = [];
  let results;
  try {
    results = rotateAll(works);
  } catch (error) {
    for (const work of works) send(work.response, 503, { error: 'temporarily_unavailable', error_description: String(error) });
    return;
  }
  works.forEach((work, i) => work.answer(results[i]));
}

function refresh(response, form, proof) {
  const token = form.get('refresh_token');
  if (form.get('grant_type') !== 'refresh_token' || !token) return send(response, 400, { error: 'invalid_request' });
  if (DPOP && proof === null) return send(response, 400, { error: 'invalid_dpop_proof' });
  const digest = digestOf(token);
  enqueue({
    response,
    run() {
      const row = readToken.get(digest);
      if (row === undefined || row.used !== 0 || row.revoked !== 0 || row.expires_at <= now() || row.client_id !== CLIENT_ID) return null;
      if (DPOP && (row.dpop_jkt !== proof.jkt || noteProof.run(proof.jti, now() + 60).changes !== 1)) return null;
      if (useToken.run(digest).changes !== 1) return null;
      const successor = newToken();
      const successorDigest = digestOf(successor);
      insertToken.run(successorDigest, row.grant_id, now() + REFRESH_TTL);
      moveHead.run(successorDigest.toString('hex'), row.grant_id);
      return { successor, row };
    },
    answer(result) {
      if (result === null) return send(response, 400, { error: 'invalid_grant' });
      const { successor, row } = result;
      const access = accessToken(row.subject, row.scope, row.grant_id, DPOP ? proof.jkt : undefined);
      const body = { access_token: access, token_type: DPOP ? 'DPoP' : 'Bearer', expires_in: ACCESS_TTL, refresh_token: successor, scope: row.scope };
      if (!ID_TOKEN) return send(response, 200, body);
      idToken(row.subject, access, (error, id) => (error ? send(response, 500, { error: 'server_error' }) : send(response, 200, { ...body, id_token: id })));
    },
  });
}

function introspect(response, form) {
  const token = form.get('token');
  if (!token) return send(response, 400, { error: 'invalid_request' });
  const row = readToken.get(digestOf(token));
  if (row === undefined || row.used !== 0 || row.revoked !== 0 || row.expires_at <= now()) return send(response, 200, { active: false });
  return send(response, 200, {
    active: true, token_type: 'refresh_token', client_id: row.client_id, sub: row.subject, scope: row.scope, exp: row.expires_at, iss: ISSUER,
  });
}

/** A JSON answer, on node:http's response or (FLOOR_HTTP=fastify) Fastify's reply. */
function send(response, status, body) {
  if (FASTIFY) return response.code(status).header('cache-control', 'no-store').send(body);
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', Buffer.byteLength(text));
  response.setHeader('cache-control', 'no-store');
  response.end(text);
}

/** Listens on node:http, reading the body as the floor's own loop; resolves to the port. */
function listenNodeHttp() {
  const server = createServer((request, response) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > BODY_LIMIT) return send(response, 413, { error: 'invalid_request' });
      const path = request.url.split('?')[0];
      if (request.method !== 'POST' || (path !== '/token' && path !== '/introspect')) return send(response, 404, { error: 'not_found' });
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      // A DPoP floor's client is public (RFC 6749 §2.1): it names itself and proves its key instead.
      if (DPOP ? form.get('client_id') !== CLIENT_ID : !authenticated(request.headers.authorization)) {
        response.setHeader('www-authenticate', 'Basic realm="floor"');
        return send(response, 401, { error: 'invalid_client' });
      }
      return path === '/token' ? refresh(response, form, DPOP ? checkedProof(request.headers.dpop, 'POST', DPOP_HTU) : undefined) : introspect(response, form);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

/** Listens with a plain Fastify app (its defaults, no logger): a form parser and the two routes. */
async function listenFastify() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, new URLSearchParams(body));
  });
  // A handler that returns nothing answers through `reply` when it is ready (refresh: after the commit).
  const route = (handle) => (request, reply) => {
    if (DPOP ? request.body.get('client_id') !== CLIENT_ID : !authenticated(request.headers.authorization)) {
      send(reply.header('www-authenticate', 'Basic realm="floor"'), 401, { error: 'invalid_client' });
      return;
    }
    handle(reply, request.body, DPOP ? checkedProof(request.headers.dpop, 'POST', DPOP_HTU) : undefined);
  };
  app.post('/token', route(refresh));
  app.post('/introspect', route(introspect));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server.address().port;
}

const port = await (FASTIFY ? listenFastify() : listenNodeHttp());
process.stdout.write(`${JSON.stringify({ ready: true, port, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokens, dpopJwk })}\n`);
process.on('SIGTERM', () => {
  db.close();
  rmSync(folder, { recursive: true, force: true });
  process.exit(0);
});
