import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { apiDefinitionFrom, ApiDefinitionError, loadApiDefinition } from '../src/api/definition.js';
import { startServer } from '../src/server.js';
import {
  api,
  assertInvalidValue,
  assertMissingFields,
  assertProblem,
  clientWithToken,
  missingMessage,
  type Api,
} from './_api.js';
import { ManualClock, startTestServer, type TestServer } from './_server.js';
import { DIALECTS } from './_dialects.js';
import { widgetsDocument } from './_documents.js';

for (const dialect of DIALECTS)
  describe(`a second collection, declared only in the OpenAPI document [${dialect}]`, () => {
    let server: TestServer;
    let rest: Api;

    before(async () => {
      server = await startTestServer({ dialect, api: apiDefinitionFrom(widgetsDocument(), 'widgets-test') });
      rest = api(server, (await clientWithToken(server, 'widget-app', ['widgets:read', 'widgets:write'])).access_token);
    });
    after(() => server.close());

    it('POST /v2/widgets with {} is 400: "Missing required field \'sku\' in request body", sku only (address is optional)', async () => {
      assertMissingFields(await rest.post('/v2/widgets', {}), [{ field: 'sku', pointer: '/sku' }], '/v2/widgets');
    });

    // Ajv reports nested required fields before the parent's; the detail must still name the top-level one.
    it('POST with {"address":{}} is 400 with detail for \'sku\' and errors listing both sku and address.city (/address/city)', async () => {
      const response = await rest.post('/v2/widgets', { address: {} });
      assertProblem(response, 400, 'missing-required-field');
      assert.equal(response.body.errors[0].detail, response.body.detail, 'errors[0] is the field the detail names');
      assert.equal(response.body.detail, missingMessage('sku'));
      const errors = [...response.body.errors].sort((a: { field: string }, b: { field: string }) =>
        a.field.localeCompare(b.field),
      );
      assert.deepEqual(errors, [
        {
          code: 'missing_required_field',
          field: 'address.city',
          pointer: '/address/city',
          detail: missingMessage('address.city'),
        },
        { code: 'missing_required_field', field: 'sku', pointer: '/sku', detail: missingMessage('sku') },
      ]);
    });

    it('a nested required field set to null is missing: {"sku":"A1","address":{"city":null}} is 400 for \'address.city\'', async () => {
      assertMissingFields(await rest.post('/v2/widgets', { sku: 'A1', address: { city: null } }), [
        { field: 'address.city', pointer: '/address/city' },
      ]);
    });

    it("an empty 'sku' is 422 invalid-field-value, not the missing-field message", async () => {
      assertInvalidValue(await rest.post('/v2/widgets', { sku: '' }), 'sku');
    });

    it("a tag of the wrong type is 422 naming 'tags[1]' at /tags/1", async () => {
      const response = await rest.post('/v2/widgets', { sku: 'A1', tags: ['ok', 7] });
      assertInvalidValue(response, 'tags[1]');
      assert.equal(response.body.errors.find((e: { field: string }) => e.field === 'tags[1]').pointer, '/tags/1');
    });

    it('an unknown nested field is 422 naming address.zip', async () => {
      assertInvalidValue(
        await rest.post('/v2/widgets', { sku: 'A1', address: { city: 'Oslo', zip: '0150' } }),
        'address.zip',
      );
    });

    it('a valid widget is 201 with Location /v2/widgets/<id>, and GET of it returns it', async () => {
      const widget = { sku: 'W-1', address: { city: 'Oslo', street: 'Karl Johans gate 1' }, tags: ['blue', 'small'] };
      const created = await rest.post('/v2/widgets', widget);
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body, { id: created.body.id, ...widget });
      const location = created.headers.get('location') ?? '';
      assert.equal(location, `/v2/widgets/${String(created.body.id)}`);
      const read = await rest.get(location);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, created.body);
      const list = await rest.get('/v2/widgets');
      assert.deepEqual(list.body, { items: [created.body], next_cursor: null });
    });

    it('the widgets scopes are the ones checked: a contacts token is 403 on /v2/widgets', async () => {
      const contacts = await clientWithToken(server, 'contacts-app', ['contacts:read', 'contacts:write']);
      const response = await api(server, contacts.access_token).post('/v2/widgets', { sku: 'X' });
      assertProblem(response, 403, 'insufficient-scope');
      assert.match(response.headers.get('www-authenticate') ?? '', /scope="widgets:write"/);
    });

    it('/v2/contacts does not exist on this server (404)', async () => {
      assertProblem(await rest.get('/v2/contacts'), 404, 'not-found');
      assertProblem(await rest.post('/v2/contacts', { email: 'a@b.co' }), 404, 'not-found');
    });

    it('/v2/openapi.json serves this document with what the server adds, and keeps all it declares', async () => {
      const response = await api(server).get('/v2/openapi.json');
      assert.equal(response.status, 200);
      const declared: any = widgetsDocument();
      assert.deepEqual(response.body.info, declared.info);
      assert.deepEqual(Object.keys(response.body.paths), Object.keys(declared.paths));
      assert.deepEqual(response.body.paths['/widgets'].post.requestBody, declared.paths['/widgets'].post.requestBody);
      assert.deepEqual(response.body.components.schemas.Address, declared.components.schemas.Address);
      assert.deepEqual(response.body.components.schemas.Widget, {
        ...declared.components.schemas.Widget,
        properties: {
          ...declared.components.schemas.Widget.properties,
          id: { type: 'string', readOnly: true, description: 'The record id, assigned by the server.' },
        },
      });
      assert.deepEqual(response.body.servers, [
        { url: 'http://gatehouse.test/v2', description: 'This Gatehouse server' },
      ]);
      const flows = response.body.components.securitySchemes.gatehouse_oauth2.flows;
      assert.equal(flows.authorizationCode.authorizationUrl, 'http://gatehouse.test/authorize');
      assert.equal(flows.clientCredentials.tokenUrl, 'http://gatehouse.test/token');
      assert.deepEqual(Object.keys(flows.clientCredentials.scopes), ['widgets:read', 'widgets:write']);
      assert.deepEqual(response.body.paths['/widgets'].post.security, [{ gatehouse_oauth2: ['widgets:write'] }]);
      assert.deepEqual(response.body.paths['/widgets/{id}'].get.security, [{ gatehouse_oauth2: ['widgets:read'] }]);
      const post = response.body.paths['/widgets'].post.responses;
      assert.deepEqual(Object.keys(post).sort(), ['201', '400', '401', '403', '413', '415', '422', '500', '503']);
      assert.equal(post['400'].description, 'A problem', 'a status the document declares is kept as declared');
      assert.ok(post['401'].headers['WWW-Authenticate'], '401 declares its challenge');
      assert.deepEqual(Object.keys(post['201'].headers), ['Location', 'ETag']);
      assert.ok(response.body.paths['/widgets/{id}'].parameters[0].example, 'the path parameter has an example');
    });

    it('an operation the document does not declare is not served: PUT /v2/widgets/{id} is 405 with Allow: GET, HEAD', async () => {
      const created = await rest.post('/v2/widgets', { sku: 'W-405' });
      const response = await rest.put(`/v2/widgets/${String(created.body.id)}`, { sku: 'W-406' });
      assertProblem(response, 405, 'method-not-allowed');
      assert.equal(response.headers.get('allow'), 'GET, HEAD');
      assert.equal((await rest.get(`/v2/widgets/${String(created.body.id)}`)).body.sku, 'W-405');
    });
  });

describe('a broken OpenAPI document stops the server before anything listens', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-broken-api-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function brokenDocument(): Record<string, unknown> {
    const doc = widgetsDocument() as { components: { schemas: { Widget: Record<string, unknown> } } };
    doc.components.schemas.Widget.required = 'sku'; // a string, not an array
    return doc;
  }

  /** A port that was free a moment ago. */
  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    assert.ok(typeof address === 'object' && address);
    return address.port;
  }

  function refusesConnections(port: number): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
  }

  it('apiDefinitionFrom of a document with required: "sku" throws ApiDefinitionError naming components.schemas.Widget.required', () => {
    assert.throws(
      () => apiDefinitionFrom(brokenDocument(), 'broken-test'),
      (error: unknown) => {
        assert.ok(error instanceof ApiDefinitionError);
        assert.match(error.message, /broken-test/);
        assert.match(error.message, /components\.schemas\.Widget\.required/);
        assert.match(error.message, /#\/components\/schemas\/Widget\/required/);
        return true;
      },
    );
  });

  it('loadApiDefinition of the broken document as a YAML file throws naming the file and the location', () => {
    const path = join(dir, 'broken.yaml');
    writeFileSync(path, toYaml(brokenDocument()));
    assert.throws(
      () => loadApiDefinition(path),
      (error: unknown) => {
        assert.ok(error instanceof ApiDefinitionError);
        assert.ok(error.message.includes(path), error.message);
        assert.match(error.message, /Widget\.required/);
        return true;
      },
    );
  });

  it('a file that is not YAML or JSON is refused with its path in the message', () => {
    const path = join(dir, 'garbage.yaml');
    writeFileSync(path, 'openapi: [unclosed\n  - : :');
    assert.throws(
      () => loadApiDefinition(path),
      (error: unknown) => error instanceof ApiDefinitionError && error.message.includes(path),
    );
  });

  it('startServer with the broken file throws, nothing listens on the port, and no database is created', async () => {
    const path = join(dir, 'broken-start.yaml');
    writeFileSync(path, toYaml(brokenDocument()));
    const database = join(dir, 'never.db');
    const port = await freePort();
    await assert.rejects(
      startServer({
        databaseUrl: `sqlite:${database}`,
        issuer: 'http://gatehouse.test',
        port,
        host: '127.0.0.1',
        clock: new ManualClock(),
        api: path,
      }),
      (error: unknown) => error instanceof ApiDefinitionError && /required/.test(error.message),
    );
    assert.equal(await refusesConnections(port), true, `nothing listens on ${port}`);
    assert.equal(existsSync(database), false, 'the store was never opened');
  });

  it('startTestServer with a broken loaded definition never gets that far: the definition itself throws', async () => {
    await assert.rejects(
      async () => startTestServer({ api: apiDefinitionFrom(brokenDocument(), 'broken') }),
      ApiDefinitionError,
    );
  });
});
