import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { runCli } from '../src/cli/run.js';
import { configFromEnv } from '../src/config.js';
import { OTLP_PACKAGES, startTracing } from '../src/telemetry/start.js';
import { isTracing } from '../src/telemetry/tracing.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { basicAuthorization, postForm, refresh, SHIPPED_OPENAPI, startTestServer } from './_server.js';

/**
 * Tracing (docs/deployment.md "Tracing"). This file runs in a process of its own (tier
 * `processes`): it registers a global tracer provider. Spawned servers export over OTLP/HTTP (JSON)
 * to a receiver in this process, which checks the spans' names, parents (W3C traceparent) and
 * attributes, and that no token, secret or record content is in anything exported.
 */

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** OTLP/JSON ids are hex; some encoders send base64: either way, hex. */
const hex = (id: string | undefined): string | undefined =>
  id === undefined || id === '' || /^[0-9a-f]+$/.test(id) ? id || undefined : Buffer.from(id, 'base64').toString('hex');

const attributesOf = (span: { attributes?: OtlpAttribute[] }): Record<string, unknown> =>
  Object.fromEntries(
    (span.attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue === undefined ? value.boolValue : Number(value.intValue)),
    ]),
  );

/** An OTLP/HTTP receiver: POST /v1/traces with a JSON body, as the collector takes it. */
class Receiver {
  readonly bodies: string[] = [];
  readonly spans: (OtlpSpan & { resource: Record<string, unknown> })[] = [];
  readonly server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      this.bodies.push(body);
      if (request.url === '/v1/traces' && /json/.test(request.headers['content-type'] ?? '')) {
        const exported = JSON.parse(body) as OtlpExport;
        for (const { resource, scopeSpans } of exported.resourceSpans)
          for (const { spans } of scopeSpans)
            for (const span of spans)
              this.spans.push({
                ...span,
                traceId: hex(span.traceId) as string,
                spanId: hex(span.spanId) as string,
                parentSpanId: hex(span.parentSpanId),
                resource: attributesOf(resource ?? {}),
              });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async listen(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async waitFor(predicate: (spans: OtlpSpan[]) => boolean, timeoutMs = 10_000): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50))
      if (predicate(this.spans)) return;
    throw new Error(`spans not received within ${timeoutMs} ms: ${this.spans.map((s) => s.name).join(', ')}`);
  }
}

const traceparent = (): { header: string; traceId: string; parentId: string } => {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${parentId}-01`, traceId, parentId };
};

for (const dialect of DIALECTS)
  describe(`tracing over OTLP/HTTP from gatehouse serve with TRACING=otlp [${dialect}]`, () => {
    const receiver = new Receiver();
    let database: { url: string; drop(): Promise<void> };
    let server: ServerProcess;
    let env: Record<string, string>;
    const secrets: string[] = [];
    let authorization = '';
    let tokens: Record<string, string> = {};
    /** A grant of its own for the REST calls: the refused refresh above revokes the first one. */
    let restToken = '';

    async function cli(...argv: string[]): Promise<Record<string, string>> {
      let out = '';
      assert.equal(await runCli(argv, env, { out: (t) => (out += t), err: () => {} }), 0, argv.join(' '));
      return JSON.parse(out) as Record<string, string>;
    }

    before(async () => {
      const endpoint = await receiver.listen();
      database = await freshDatabase(dialect);
      env = { DATABASE_URL: database.url, ISSUER: 'http://gatehouse.test', OPENAPI_PATH: SHIPPED_OPENAPI };
      await cli('migrate');
      const added = await cli(
        'clients',
        'add',
        '--id',
        'traced',
        '--name',
        'Traced',
        '--scope',
        'contacts:read contacts:write',
      );
      await cli('users', 'add', '--username', 'alice');
      tokens = await cli(
        'grants',
        'issue',
        '--client',
        'traced',
        '--user',
        'alice',
        '--scope',
        'contacts:read contacts:write',
      );
      restToken = (await cli('grants', 'issue', '--client', 'traced', '--user', 'alice', '--scope', 'contacts:write'))
        .access_token as string;
      secrets.push(restToken);
      authorization = basicAuthorization('traced', added.client_secret as string);
      secrets.push(added.client_secret as string, tokens.refresh_token as string, tokens.access_token as string);
      secrets.push(authorization.slice('Basic '.length));
      server = await spawnServer({
        ...env,
        AUTO_MIGRATE: 'false',
        TRACING: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
    });
    after(async () => {
      await server?.stop();
      receiver.server.close();
      await database?.drop();
    });

    it('a refresh: a server span whose parent is the request’s traceparent, the grant span in it, the store transaction in that', async () => {
      const parent = traceparent();
      const response = await postForm(
        `${server.url}/token`,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
        { headers: { authorization, traceparent: parent.header } },
      );
      assert.equal(response.status, 200);
      const body = (await response.json()) as Record<string, string>;
      secrets.push(body.refresh_token as string, body.access_token as string);
      const ofTrace = (spans: OtlpSpan[]): OtlpSpan[] => spans.filter((s) => s.traceId === parent.traceId);
      await receiver.waitFor((spans) => ofTrace(spans).some((s) => s.name === 'store.transaction'));
      const spans = ofTrace(receiver.spans);
      const request = spans.find((s) => s.name === 'POST /token');
      const grant = spans.find((s) => s.name === 'oauth.grant refresh_token');
      const transaction = spans.find((s) => s.name === 'store.transaction');
      assert.ok(request && grant && transaction, JSON.stringify(spans.map((s) => s.name)));
      assert.equal(request.parentSpanId, parent.parentId, 'W3C trace context: the caller’s span is the parent');
      assert.equal(request.kind, 2, 'SPAN_KIND_SERVER');
      assert.deepEqual(attributesOf(request), {
        'http.request.method': 'POST',
        'http.route': '/token',
        'http.response.status_code': 200,
      });
      assert.equal(grant.parentSpanId, request.spanId);
      assert.deepEqual(attributesOf(grant), { 'oauth.grant_type': 'refresh_token', 'oauth.client_id': 'traced' });
      assert.equal(transaction.parentSpanId, grant.spanId);
      assert.deepEqual(attributesOf(transaction), {
        'db.system.name': dialect === 'postgres' ? 'postgresql' : 'sqlite',
      });
      assert.equal(receiver.spans[0]?.resource['service.name'], 'gatehouse');
    });

    it('a refused refresh: the grant span records the error’s reason (never its message) and an error status', async () => {
      const parent = traceparent();
      const response = await postForm(
        `${server.url}/token`,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
        { headers: { authorization, traceparent: parent.header } },
      );
      assert.equal(response.status, 400);
      await receiver.waitFor((spans) => spans.some((s) => s.traceId === parent.traceId && s.name === 'POST /token'));
      const grant = receiver.spans.find((s) => s.traceId === parent.traceId && s.name.startsWith('oauth.grant'));
      assert.ok(grant);
      assert.equal(grant.status?.code, 2, 'STATUS_CODE_ERROR');
      assert.match(String(attributesOf(grant)['error.type']), /^[a-z_]+$/);
    });

    it('REST operations: a server span per operation (201 created, the missing-field 400), parent from traceparent', async () => {
      const headers = { authorization: `Bearer ${restToken}`, 'content-type': 'application/json' };
      const created = traceparent();
      const email = `alice-${randomBytes(4).toString('hex')}@example.com`;
      secrets.push(email);
      const post = await fetch(`${server.url}/v2/contacts`, {
        method: 'POST',
        headers: { ...headers, traceparent: created.header },
        body: JSON.stringify({ email }),
      });
      assert.equal(post.status, 201);
      const missing = traceparent();
      const refused = await fetch(`${server.url}/v2/contacts`, {
        method: 'POST',
        headers: { ...headers, traceparent: missing.header },
        body: '{}',
      });
      assert.equal(refused.status, 400);
      await receiver.waitFor((spans) => [created, missing].every((p) => spans.some((s) => s.traceId === p.traceId)));
      const [createdSpan, missingSpan] = [created, missing].map((p) =>
        receiver.spans.find((s) => s.traceId === p.traceId && s.name === 'POST /v2/contacts'),
      );
      assert.ok(createdSpan && missingSpan);
      assert.equal(createdSpan.parentSpanId, created.parentId);
      assert.equal(attributesOf(createdSpan)['http.route'], '/v2/contacts');
      assert.equal(attributesOf(createdSpan)['http.response.status_code'], 201);
      assert.equal(attributesOf(missingSpan)['http.response.status_code'], 400);
    });

    it('nothing exported holds a token, a client secret, a credential or a record’s content', async () => {
      assert.ok(receiver.bodies.length > 0);
      const exported = receiver.bodies.join('\n');
      for (const secret of secrets) assert.ok(!exported.includes(secret), `exported: ${secret.slice(0, 12)}…`);
      assert.doesNotMatch(exported, /eyJ[\w-]{10,}\.[\w-]{10,}/, 'no JWT');
      assert.doesNotMatch(exported, /Bearer|Basic /);
    });
  });

describe('tracing off (the default)', () => {
  it('TRACING is off, otlp or api; anything else stops serve at start', () => {
    assert.equal(configFromEnv({}).tracing, 'off');
    assert.equal(configFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing, 'off');
    assert.equal(configFromEnv({ TRACING: 'otlp' }).tracing, 'otlp');
    assert.equal(configFromEnv({ TRACING: 'api' }).tracing, 'api');
    assert.throws(() => configFromEnv({ TRACING: 'on' }), /TRACING must be off, otlp or api, got "on"/);
  });

  it('TRACING unset: no span is exported even with OTEL_EXPORTER_OTLP_ENDPOINT set', async () => {
    const receiver = new Receiver();
    const endpoint = await receiver.listen();
    const database = await freshDatabase('sqlite');
    const server = await spawnServer({
      DATABASE_URL: database.url,
      ISSUER: 'http://gatehouse.test',
      OPENAPI_PATH: SHIPPED_OPENAPI,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    try {
      const response = await postForm(`${server.url}/token`, { grant_type: 'client_credentials' });
      assert.equal(response.status, 401);
      // A stop flushes the spans a tracing server still holds: none can come after it.
      await server.stop();
      assert.deepEqual(receiver.bodies, []);
    } finally {
      await server.stop();
      receiver.server.close();
      await database.drop();
    }
  });

  it('in process, with a tracer provider registered: off makes no span at all; TRACING=api makes them with that provider', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
    try {
      assert.equal(isTracing(), false);
      const off = await startTestServer();
      try {
        const client = await off.addClient({ id: 'quiet' });
        const grant = await off.issueGrant(client);
        assert.equal((await refresh(off, client, grant.refresh_token)).status, 200);
        assert.deepEqual(
          exporter.getFinishedSpans().map((s) => s.name),
          [],
        );
      } finally {
        await off.close();
      }
      const tracing = await startTracing('api');
      const on = await startTestServer();
      try {
        const client = await on.addClient({ id: 'loud' });
        const grant = await on.issueGrant(client);
        assert.equal((await refresh(on, client, grant.refresh_token)).status, 200);
        const names = exporter.getFinishedSpans().map((s) => s.name);
        for (const name of ['POST /token', 'oauth.grant refresh_token', 'store.transaction'])
          assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      } finally {
        await on.close();
        await tracing.shutdown();
      }
    } finally {
      await provider.shutdown();
      trace.disable();
    }
  });

  it('TRACING=otlp without the optional packages fails with a message naming them', async () => {
    const missing = async (specifier: string): Promise<never> => {
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    await assert.rejects(startTracing('otlp', missing), (error: Error) => {
      for (const name of OTLP_PACKAGES) assert.ok(error.message.includes(name), error.message);
      assert.match(error.message, /TRACING=otlp needs the optional packages .* npm install /);
      return true;
    });
    assert.equal(isTracing(), false);
  });
});
