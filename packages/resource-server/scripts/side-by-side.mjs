// Answers of three validators to the same six bodies, for docs/resource-servers.md. Not part of the
// test suite: express-openapi-validator is not a dependency of this repository. Run it from a
// directory where it is installed, after `npm run build` here:
//   mkdir /tmp/side && cd /tmp/side && npm init -y && npm pkg set type=module
//   npm install --ignore-scripts express-openapi-validator express fastify
//   node /path/to/gatehouse/packages/resource-server/scripts/side-by-side.mjs
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = createRequire(join(process.cwd(), 'package.json'));
const load = async (name) => import(pathToFileURL(here.resolve(name)).href);
const { default: express } = await load('express');
const OpenApiValidator = await load('express-openapi-validator');
const { default: Fastify } = await load('fastify');
const { gatehouseFastify } = await import(new URL('../dist/fastify.js', import.meta.url).href);

const NOTE = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'priority'],
  properties: {
    title: { type: 'string', minLength: 1 },
    priority: { type: 'integer', minimum: 1 },
    due: { type: 'string', format: 'date' },
  },
};
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: NOTE } } },
        responses: { 201: { description: 'created' } },
      },
    },
  },
};
const CASES = [
  ['a missing field', { priority: 1 }],
  ['`null`', { title: null, priority: 1 }],
  ['`""`', { title: '', priority: 1 }],
  ['a wrong type', { title: 'x', priority: '2' }],
  ['an unknown field', { title: 'x', priority: 1, color: 'red' }],
  ['three fields wrong at once', { title: '', priority: 0, due: 'tomorrow' }],
];
const created = (body) => ({ received: body });

async function expressValidator() {
  const app = express();
  app.use(express.json());
  app.use(OpenApiValidator.middleware({ apiSpec: DOCUMENT, validateRequests: true }));
  app.post('/notes', (req, res) => res.status(201).json(created(req.body)));
  // The error handler of express-openapi-validator's README.
  app.use((err, _req, res, _next) => res.status(err.status || 500).json({ message: err.message, errors: err.errors }));
  return listen(
    (port) =>
      new Promise((resolve) => {
        const s = app.listen(port, '127.0.0.1', () => resolve(s));
      }),
    (s) => s.close(),
  );
}

async function stockFastify() {
  const app = Fastify();
  app.post('/notes', { schema: { body: NOTE } }, async (request, reply) => reply.code(201).send(created(request.body)));
  return listenFastify(app);
}

async function kitFastify() {
  const app = Fastify();
  await app.register(gatehouseFastify, { issuer: 'https://gatehouse.example', openapi: DOCUMENT });
  app.post('/notes', async (request, reply) => reply.code(201).send(created(request.body)));
  return listenFastify(app);
}

async function listenFastify(app) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${app.server.address().port}`, close: () => app.close() };
}

async function listen(start, stop) {
  const server = await start(0);
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => stop(server) };
}

const servers = [
  [
    `express-openapi-validator ${version('express-openapi-validator')} (Express ${version('express')})`,
    await expressValidator(),
  ],
  [`Fastify ${version('fastify')}, route schema, default Ajv options`, await stockFastify()],
  ['@gatehouse/resource-server (Fastify plugin)', await kitFastify()],
];
for (const [name, body] of CASES) {
  console.log(`\n### ${name}: \`${JSON.stringify(body)}\`\n`);
  for (const [server, { url }] of servers) {
    const response = await fetch(`${url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    console.log(`**${server}**: ${response.status}\n\`\`\`json\n${await response.text()}\n\`\`\``);
  }
}
for (const [, server] of servers) await server.close();

function version(name) {
  return here(`${name}/package.json`).version;
}
