// The ceiling: a bare node:http server that does the HTTP part of each scenario and nothing else.
// It parses the same bodies (URLSearchParams for the OAuth forms, JSON.parse for the REST API) and
// answers the same shapes, with no storage, no client authentication and no signing.
//   POST /token       refresh_token grant: a token-shaped JSON with a new random refresh token
//   POST /introspect  RFC 7662: an active answer for any token
//   POST /v2/contacts 201 with the record, or 400 problem+json when email is missing or null
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const BODY_LIMIT = 64 * 1024;

const server = createServer((request, response) => {
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= BODY_LIMIT) chunks.push(chunk);
  });
  request.on('end', () => {
    if (size > BODY_LIMIT) return send(response, 413, { error: 'too large' });
    const body = Buffer.concat(chunks).toString('utf8');
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && path === '/token') return token(response, new URLSearchParams(body));
    if (request.method === 'POST' && path === '/introspect') return introspect(response, new URLSearchParams(body));
    if (request.method === 'POST' && path === '/v2/contacts') return createContact(response, body);
    return send(response, 404, { error: 'not found' });
  });
});

function token(response, form) {
  if (form.get('grant_type') !== 'refresh_token' || !form.get('refresh_token')) return send(response, 400, { error: 'invalid_request' }, true);
  return send(response, 200, {
    access_token: randomBytes(32).toString('base64url'), token_type: 'Bearer', expires_in: 300,
    refresh_token: randomBytes(32).toString('base64url'), scope: 'contacts:read',
  }, true);
}

function introspect(response, form) {
  if (!form.get('token')) return send(response, 400, { error: 'invalid_request' }, true);
  const now = Math.floor(Date.now() / 1000);
  return send(response, 200, {
    active: true, token_type: 'refresh_token', client_id: 'bench', sub: 'user', scope: 'contacts:read', exp: now + 3600, iat: now, iss: 'http://127.0.0.1',
  }, true);
}

function createContact(response, text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return send(response, 400, { type: '/problems/malformed-json', title: 'Malformed JSON', status: 400 }, false, 'application/problem+json');
  }
  if (body === null || typeof body !== 'object' || body.email === undefined || body.email === null) {
    const detail = "Missing required field 'email' in request body";
    return send(response, 400, {
      type: '/problems/missing-required-field', title: 'Missing required field', status: 400, detail, instance: '/v2/contacts',
      errors: [{ code: 'missing_required_field', field: 'email', pointer: '/email', detail }],
    }, false, 'application/problem+json');
  }
  const id = randomUUID();
  response.setHeader('location', `/v2/contacts/${id}`);
  return send(response, 201, { id, ...body });
}

function send(response, status, body, noStore = false, type = 'application/json') {
  const text = JSON.stringify(body);
  response.statusCode = status;
  response.setHeader('content-type', `${type}; charset=utf-8`);
  response.setHeader('content-length', Buffer.byteLength(text));
  if (noStore) {
    response.setHeader('cache-control', 'no-store');
    response.setHeader('pragma', 'no-cache');
  }
  response.end(text);
}

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ ready: true, port: server.address().port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
