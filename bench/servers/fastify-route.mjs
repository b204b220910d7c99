// A plain Fastify route, the way the framework's documentation writes one: POST /v2/contacts with a
// JSON schema (Fastify's own Ajv, its defaults), 201 with the record, and an error handler that
// turns the schema's "required" failure into the same 400 problem+json Gatehouse answers.
// No authentication and no storage. With FASTIFY_DPOP=1 (servers/fastify-dpop-route.mjs, the peer of
// kit-dpop-201) the route also verifies one ES256 DPoP proof per request in an onRequest hook
// (RFC 9449 §4.3, lib/dpop-proof.mjs: its signature, htm, htu, iat and `ath` of the presented token)
// and answers 401 to a missing or invalid one; it still checks no access token.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { checkedProof } from '../lib/dpop-proof.mjs';

const app = Fastify({ logger: false });

if (process.env.FASTIFY_DPOP === '1') {
  app.addHook('onRequest', (request, reply, done) => {
    const authorization = request.headers.authorization ?? '';
    const token = authorization.startsWith('DPoP ') ? authorization.slice(5) : undefined;
    const htu = `http://${request.headers.host}${request.url.split('?')[0]}`;
    if (token === undefined || checkedProof(request.headers.dpop, request.method, htu, token) === null) {
      reply.code(401).header('www-authenticate', 'DPoP error="invalid_dpop_proof"').send({ error: 'invalid_dpop_proof' });
      return;
    }
    done();
  });
}

const contact = {
  type: 'object',
  required: ['email'],
  properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' } },
  additionalProperties: false,
};

app.setErrorHandler((error, request, reply) => {
  const missing = error.validation?.find((v) => v.keyword === 'required');
  if (missing) {
    const field = missing.params.missingProperty;
    const detail = `Missing required field '${field}' in request body`;
    return reply.code(400).type('application/problem+json').send({
      type: '/problems/missing-required-field', title: 'Missing required field', status: 400, detail, instance: request.url,
      errors: [{ code: 'missing_required_field', field, pointer: `/${field}`, detail }],
    });
  }
  return reply.code(error.statusCode ?? 500).type('application/problem+json').send({ title: error.message, status: error.statusCode ?? 500 });
});

app.post('/v2/contacts', { schema: { body: contact } }, async (request, reply) => {
  const id = randomUUID();
  return reply.code(201).header('location', `/v2/contacts/${id}`).send({ id, ...request.body });
});

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ ready: true, port: app.server.address().port })}\n`);
process.on('SIGTERM', () => process.exit(0));
