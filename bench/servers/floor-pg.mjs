// The floor of `refresh-pg`: the floor's refresh (floor.mjs: node:http, Basic client authentication,
// URLSearchParams, an ES256 access token) on PostgreSQL through node-postgres, writing the rows a
// rotation writes in one transaction per refresh: the token and its grant read FOR UPDATE, the token
// marked used, its successor inserted, the grant's head moved. The driver's pipeline mode sends BEGIN
// with the read, and the writes with the COMMIT: two waits for the database per refresh (four Syncs).
// Arguments: the number of chains, the database URL, and `setup` for the process that creates the
// tables and the chains (the others share them). Prints one JSON line: port, credentials, tokens.
import { createHash, generateKeyPairSync, randomBytes, sign, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const [chains, url, role] = [Number(process.argv[2] ?? 64), process.argv[3], process.argv[4]];
const CLIENT_ID = 'bench';
const ISSUER = 'http://localhost';
const SCOPE = 'contacts:read';
const ACCESS_TTL = 300;
const REFRESH_TTL = 30 * 24 * 3600;
const pool = new pg.Pool({ connectionString: url, max: 10, pipeline: true });
const digestOf = (token) => createHash('sha256').update(token).digest();
const newToken = () => randomBytes(32).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

let clientSecret = process.env.FLOOR_SECRET;
const tokens = [];
if (role === 'setup') {
  clientSecret = randomBytes(32).toString('base64url');
  await pool.query(`CREATE TABLE grants (id text PRIMARY KEY, client_id text NOT NULL, subject text NOT NULL, scope text NOT NULL,
    head bytea NOT NULL, revoked boolean NOT NULL DEFAULT false);
    CREATE TABLE refresh_tokens (digest bytea PRIMARY KEY, grant_id text NOT NULL REFERENCES grants, expires_at bigint NOT NULL,
    used boolean NOT NULL DEFAULT false)`);
  for (let i = 0; i < chains; i++) {
    const token = newToken();
    const grantId = randomBytes(16).toString('hex');
    await pool.query('INSERT INTO grants (id, client_id, subject, scope, head) VALUES ($1, $2, $3, $4, $5)', [grantId, CLIENT_ID, `user-${i}`, SCOPE, digestOf(token)]);
    await pool.query('INSERT INTO refresh_tokens (digest, grant_id, expires_at) VALUES ($1, $2, $3)', [digestOf(token), grantId, now() + REFRESH_TTL]);
    tokens.push(token);
  }
}
const SECRET_DIGEST = createHash('sha256').update(clientSecret).digest();

const READ = { name: 'read', text: `SELECT t.grant_id, t.expires_at, t.used, g.client_id, g.subject, g.scope, g.revoked
  FROM refresh_tokens t JOIN grants g ON g.id = t.grant_id WHERE t.digest = $1 FOR UPDATE` };
const WRITE = { name: 'rotate', text: `WITH used AS (UPDATE refresh_tokens SET used = true WHERE digest = $1),
  successor AS (INSERT INTO refresh_tokens (digest, grant_id, expires_at) VALUES ($2, $3, $4))
  UPDATE grants SET head = $2 WHERE id = $3` };

/** One rotation in one transaction; null when the token is unknown, used, expired or not the client's. */
async function rotate(digest) {
  const client = await pool.connect();
  try {
    const begun = client.query('BEGIN');
    const read = client.query({ ...READ, values: [digest] });
    await begun;
    const [row] = (await read).rows;
    if (row === undefined || row.used || row.revoked || Number(row.expires_at) <= now() || row.client_id !== CLIENT_ID) {
      await client.query('ROLLBACK');
      return null;
    }
    const successor = newToken();
    const written = client.query({ ...WRITE, values: [digest, digestOf(successor), row.grant_id, now() + REFRESH_TTL] });
    const committed = client.query('COMMIT');
    await written;
    await committed;
    return { successor, row };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const HEADER = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: 'floor' })).toString('base64url');
function accessToken(subject, scope, grantId) {
  const iat = now();
  const claims = { iss: ISSUER, sub: subject, aud: ISSUER, client_id: CLIENT_ID, scope, jti: randomBytes(16).toString('hex'), iat, exp: iat + ACCESS_TTL, grant_id: grantId };
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** RFC 6749 §2.3.1 Basic: the client id and the secret's digest compared in constant time. */
function authenticated(header) {
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const secret = decodeURIComponent(decoded.slice(colon + 1));
  return timingSafeEqual(createHash('sha256').update(secret).digest(), SECRET_DIGEST) && decodeURIComponent(decoded.slice(0, colon)) === CLIENT_ID;
}

function send(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || request.url.split('?')[0] !== '/token') return send(response, 404, { error: 'not_found' });
    if (!authenticated(request.headers.authorization)) return send(response, 401, { error: 'invalid_client' });
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const token = form.get('refresh_token');
    if (form.get('grant_type') !== 'refresh_token' || !token) return send(response, 400, { error: 'invalid_request' });
    rotate(digestOf(token)).then((result) => {
      if (result === null) return send(response, 400, { error: 'invalid_grant' });
      const { successor, row } = result;
      send(response, 200, { access_token: accessToken(row.subject, row.scope, row.grant_id), token_type: 'Bearer', expires_in: ACCESS_TTL,
        refresh_token: successor, scope: row.scope });
    }, (error) => send(response, 503, { error: 'temporarily_unavailable', error_description: String(error) }));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ ready: true, port: server.address().port, clientId: CLIENT_ID, clientSecret, tokens })}\n`);
process.on('SIGTERM', () => pool.end().finally(() => process.exit(0)));
