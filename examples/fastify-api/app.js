// A small notes API on Fastify, protected by Gatehouse: the kit checks the token, the scopes the
// operation's `security` asks for, and the body against ./openapi.yaml before any handler runs.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { gatehouseFastify } from '@gatehouse/resource-server/fastify';

const OPENAPI = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

/** Starts the API on `port` (0: any free port). `options` are the kit's (issuer, introspection...). */
export async function start({ port = 4000, host = '127.0.0.1', ...options }) {
  const app = Fastify();
  await app.register(gatehouseFastify, { openapi: OPENAPI, ...options });
  const notes = new Map();
  app.get('/health', async () => ({ ok: true }));
  app.get('/notes', async () => [...notes.values()]);
  app.post('/notes', async (request, reply) => {
    const note = { ...request.body, id: randomUUID() };
    notes.set(note.id, note);
    return reply.code(201).header('location', `/notes/${note.id}`).send(note);
  });
  app.get('/notes/:id', async (request, reply) => notes.get(request.params.id) ?? notFound(reply));
  app.put('/notes/:id', async (request, reply) => {
    if (!notes.has(request.params.id)) return notFound(reply);
    const note = { ...request.body, id: request.params.id };
    notes.set(note.id, note);
    return note;
  });
  await app.listen({ port, host });
  return { url: `http://${host}:${app.server.address().port}`, close: () => app.close() };
}

function notFound(reply) {
  return reply.code(404).type('application/problem+json').send({ title: 'Not found', status: 404 });
}
