// A small notes API on Express, protected by Gatehouse: the kit checks the token, the scopes the
// operation's `security` asks for, and the body against ./openapi.yaml before any route runs.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { gatehouseExpress } from '@gatehouse/resource-server/express';

const OPENAPI = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

/** Starts the API on `port` (0: any free port). `options` are the kit's (issuer, introspection...). */
export async function start({ port = 4000, host = '127.0.0.1', ...options }) {
  const app = express();
  app.use(gatehouseExpress({ openapi: OPENAPI, ...options }));
  const notes = new Map();
  app.get('/health', (_req, res) => res.json({ ok: true }));
  app.get('/notes', (_req, res) => res.json([...notes.values()]));
  app.post('/notes', (req, res) => {
    const note = { ...req.body, id: randomUUID() };
    notes.set(note.id, note);
    res.status(201).location(`/notes/${note.id}`).json(note);
  });
  app.get('/notes/:id', (req, res) => {
    const note = notes.get(req.params.id);
    if (note === undefined) return notFound(res);
    res.json(note);
  });
  app.put('/notes/:id', (req, res) => {
    if (!notes.has(req.params.id)) return notFound(res);
    const note = { ...req.body, id: req.params.id };
    notes.set(note.id, note);
    res.json(note);
  });
  const server = await new Promise((resolve) => {
    const listening = app.listen(port, host, () => resolve(listening));
  });
  return {
    url: `http://${host}:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function notFound(res) {
  res.status(404).type('application/problem+json').json({ title: 'Not found', status: 404 });
}
