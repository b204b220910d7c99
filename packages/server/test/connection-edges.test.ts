import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathOfUnreadableRequest } from '../src/http/client-errors.js';
import { api, clientWithToken } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { exchange, type Answer } from './_exchange.js';
import { ISSUER } from './_oauth-assertions.js';
import { basicAuthorization, startTestServer, type TestServer } from './_server.js';

/**
 * What a connection carries at its edges, found from the outside: pipelined requests before one the parser
 * refuses, a client that half-closes after its request, CONNECT, and request lines that are not
 * HTTP/1.x. Raw sockets, since fetch can express none of it; on both dialects, since the answers
 * that were lost were the ones that wait on the store.
 */
for (const dialect of DIALECTS)
  describe(`the edges of a connection [${dialect}]`, () => {
    let server: TestServer;
    let bearer: string;
    let contactId: string;

    before(async () => {
      server = await startTestServer({ dialect });
      const issued = await clientWithToken(server, 'app', ['contacts:read', 'contacts:write']);
      bearer = `Bearer ${issued.access_token}`;
      const created = await api(server, issued.access_token).post('/v2/contacts', { email: 'ada@example.com' });
      assert.equal(created.status, 201, created.text);
      contactId = created.body.id;
    });
    after(() => server.close());

    /** GET of the contact: reaches the store (the grant of the token, then the record). */
    const getContact = (version = 'HTTP/1.1'): string =>
      `GET /v2/contacts/${contactId} ${version}\r\nhost: gatehouse.test\r\nauthorization: ${bearer}\r\n\r\n`;
    /** A token request with a wrong secret: reaches the store (the client's secret digest). */
    const wrongSecret = (): string => {
      const body = 'grant_type=client_credentials';
      return (
        `POST /token HTTP/1.1\r\nhost: gatehouse.test\r\nauthorization: ${basicAuthorization('app', 'wrong')}\r\n` +
        `content-type: application/x-www-form-urlencoded\r\ncontent-length: ${body.length}\r\n\r\n${body}`
      );
    };

    function assertContact(answer: Answer | undefined): void {
      assert.equal(answer?.status, 200, answer?.text);
      assert.equal(JSON.parse(answer.text).id, contactId);
    }

    function assertInvalidClient(answer: Answer | undefined): void {
      assert.equal(answer?.status, 401, answer?.text);
      assert.equal(JSON.parse(answer.text).error, 'invalid_client');
    }

    /** The catalog's malformed-request problem, on a connection the server then closes. */
    function assertMalformedRequest(answer: Answer | undefined, instance: string): { detail: string } {
      assert.equal(answer?.status, 400, answer?.text);
      assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json\b/);
      assert.equal(answer.headers.connection?.toLowerCase(), 'close');
      const problem = JSON.parse(answer.text) as { type: string; instance: string; detail: string };
      assert.equal(problem.type, '/problems/malformed-request');
      assert.equal(problem.instance, instance);
      return problem;
    }

    function assertRequestUnreadable(answer: Answer | undefined): void {
      assert.equal(answer?.status, 400, answer?.text);
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.deepEqual(JSON.parse(answer.text), {
        error: 'invalid_request',
        error_description: 'request could not be read',
        error_uri: `${ISSUER}/problems/invalid-request`,
      });
    }

    describe('pipelined requests before one the parser refuses (they were dropped)', () => {
      it('two valid requests then a malformed header in one write: both answers in order, then the catalog 400, then the close', async () => {
        const malformed = `GET /v2/contacts HTTP/1.1\r\nhost: gatehouse.test\r\nbad header\r\n\r\n`;
        const { answers, rest, closed } = await exchange(server.url, getContact() + wrongSecret() + malformed);
        assert.equal(answers.length, 3, JSON.stringify(answers));
        assertContact(answers[0]);
        assertInvalidClient(answers[1]);
        assertMalformedRequest(answers[2], '/v2/contacts');
        assert.equal(rest, '');
        assert.ok(closed, 'the server closed the connection');
      });

      it('the refused request is the one after the valid ones: an unknown method on /token after a REST request is invalid_request', async () => {
        const { answers, closed } = await exchange(server.url, getContact() + 'FOO /token HTTP/1.1\r\nhost: x\r\n\r\n');
        assert.equal(answers.length, 2, JSON.stringify(answers));
        assertContact(answers[0]);
        assertRequestUnreadable(answers[1]);
        assert.ok(closed);
      });

      it('a body that breaks its chunked framing, after a valid request: the valid answer, then the catalog 400', async () => {
        const broken =
          `POST /v2/contacts HTTP/1.1\r\nhost: gatehouse.test\r\nauthorization: ${bearer}\r\n` +
          'content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n';
        const { answers, closed } = await exchange(server.url, getContact() + broken);
        assert.equal(answers.length, 2, JSON.stringify(answers));
        assertContact(answers[0]);
        assertMalformedRequest(answers[1], '/v2/contacts');
        assert.ok(closed);
      });
    });

    describe('a client that half-closes (FIN) right after its request still gets its answer', () => {
      it('a REST read that waits on the store is answered, then the connection closes', async () => {
        const { answers, closed } = await exchange(server.url, getContact(), { halfClose: true });
        assert.equal(answers.length, 1, JSON.stringify(answers));
        assertContact(answers[0]);
        assert.ok(closed);
      });

      it('a token request with a wrong secret is answered invalid_client', async () => {
        const { answers, closed } = await exchange(server.url, wrongSecret(), { halfClose: true });
        assert.equal(answers.length, 1, JSON.stringify(answers));
        assertInvalidClient(answers[0]);
        assert.ok(closed);
      });

      it('two pipelined requests then FIN: both are answered, in order', async () => {
        const { answers } = await exchange(server.url, wrongSecret() + getContact(), { halfClose: true });
        assert.equal(answers.length, 2, JSON.stringify(answers));
        assertInvalidClient(answers[0]);
        assertContact(answers[1]);
      });
    });

    describe('CONNECT and request lines that are not HTTP/1.x get the catalog 400 (they got no answer)', () => {
      it('CONNECT is 400 malformed-request and the connection closes: Gatehouse is no proxy', async () => {
        const { answers, closed } = await exchange(
          server.url,
          'CONNECT gatehouse.test:443 HTTP/1.1\r\nhost: x\r\n\r\n',
        );
        assert.equal(answers.length, 1, JSON.stringify(answers));
        assertMalformedRequest(answers[0], '/');
        assert.ok(closed);
      });

      it('CONNECT after a valid request: the valid answer first', async () => {
        const { answers, closed } = await exchange(
          server.url,
          `${getContact()}CONNECT a:443 HTTP/1.1\r\nhost: a\r\n\r\n`,
        );
        assert.equal(answers.length, 2, JSON.stringify(answers));
        assertContact(answers[0]);
        assertMalformedRequest(answers[1], '/');
        assert.ok(closed);
      });

      it('an HTTP/0.9 request line (no version) is 400 malformed-request, and the connection closes', async () => {
        const { answers, closed } = await exchange(server.url, `GET /v2/contacts/${contactId}\r\n\r\n`);
        assert.equal(answers.length, 1, JSON.stringify(answers));
        const problem = assertMalformedRequest(answers[0], `/v2/contacts/${contactId}`);
        assert.match(problem.detail, /HTTP\/0\.9/);
        assert.ok(closed);
      });

      it('an HTTP/0.9 request line then FIN is 400 malformed-request', async () => {
        const { answers, closed } = await exchange(server.url, 'GET /v2/contacts\r\n', { halfClose: true });
        assert.equal(answers.length, 1, JSON.stringify(answers));
        assertMalformedRequest(answers[0], '/');
        assert.ok(closed);
      });

      it('an HTTP/0.9 request line on POST /token is invalid_request "request could not be read"', async () => {
        const { answers } = await exchange(server.url, 'POST /token\r\n\r\n');
        assert.equal(answers.length, 1, JSON.stringify(answers));
        assertRequestUnreadable(answers[0]);
      });

      it('a request line saying HTTP/2.0 is 400 malformed-request; HTTP/1.0 is still served', async () => {
        const two = await exchange(server.url, getContact('HTTP/2.0'));
        assert.equal(two.answers.length, 1, JSON.stringify(two.answers));
        assertMalformedRequest(two.answers[0], `/v2/contacts/${contactId}`);
        const one = await exchange(server.url, getContact('HTTP/1.0'));
        assertContact(one.answers[0]);
      });
    });
  });

describe('a bare HTTP/0.9 request line followed by nothing', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ connectionLimits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
  });
  after(() => server.close());

  it('cannot be told from slow headers: it is answered request-timeout when the headers time runs out, never left unanswered', async () => {
    const { answers, closed } = await exchange(server.url, 'GET /\r\n', { timeoutMs: 5000 });
    assert.equal(answers.length, 1, JSON.stringify(answers));
    assert.equal(answers[0]?.status, 408);
    assert.equal(JSON.parse(answers[0].text).type, '/problems/request-timeout');
    assert.ok(closed);
  });
});

describe('finding the refused request in the bytes the parser read', () => {
  it('the last request line before where the parser stopped, after a pipelined body too; never the query', () => {
    const packet =
      'GET /v2/contacts HTTP/1.1\r\nhost: x\r\n\r\n' +
      'POST /token HTTP/1.1\r\ncontent-length: 5\r\n\r\nabcde' +
      'GET /v2/contacts/x?secret=1 HTTP/1.1\r\nbad header\r\n\r\n';
    const rawPacket = Buffer.from(packet, 'latin1');
    assert.equal(
      pathOfUnreadableRequest({ rawPacket, bytesParsed: packet.indexOf('bad') }, undefined),
      '/v2/contacts/x',
    );
    assert.equal(
      pathOfUnreadableRequest({ rawPacket, bytesParsed: packet.indexOf('content-length') }, undefined),
      '/token',
    );
  });

  it('takes time linear in the bytes: 64 KiB of hostile bytes are searched in well under a second', () => {
    for (const packet of [
      'a'.repeat(65_536),
      'a /'.repeat(21_000),
      `${'a'.repeat(1000)} `.repeat(64),
      ' /'.repeat(32_000),
    ]) {
      const started = performance.now();
      pathOfUnreadableRequest({ rawPacket: Buffer.from(packet, 'latin1') }, undefined);
      assert.ok(
        performance.now() - started < 500,
        `searched ${packet.length} bytes in ${performance.now() - started} ms`,
      );
    }
  });
});
