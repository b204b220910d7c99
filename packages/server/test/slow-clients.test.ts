import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from './_server.js';

/** A raw connection: what it was answered, and when the server closed it. */
interface RawConnection {
  readonly socket: Socket;
  received(): string;
  /** Resolves with the milliseconds from connecting to the server's close. */
  readonly closed: Promise<number>;
}

async function open(server: TestServer): Promise<RawConnection> {
  const { port } = new URL(server.url);
  const started = Date.now();
  const socket = connect(Number(port), '127.0.0.1');
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  // A server that cut the connection off answers a later write with EPIPE or ECONNRESET: not a failure
  // here, where the cut is what is tested. Not events.once for the close, which rejects on that 'error'.
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  await once(socket, 'connect');
  return { socket, received: () => data, closed };
}

/** Writes `text` one byte every `everyMs`, until the server closes the connection or the text ends. */
async function trickle(connection: RawConnection, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (!connection.socket.writable) return;
    connection.socket.write(byte);
    await sleep(everyMs);
  }
}

describe('limits against slow and greedy clients', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      connectionLimits: {
        headersTimeoutMs: 500,
        requestTimeoutMs: 1000,
        keepAliveTimeoutMs: 300,
        maxHeaderBytes: 2048,
        maxConnections: 6,
      },
    });
  });
  after(() => server.close());

  it('headers sent a byte at a time (slowloris) are cut off at the headers timeout with 408 request-timeout', async () => {
    const connection = await open(server);
    void trickle(
      connection,
      `GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`,
      50,
    );
    const closedAfter = await connection.closed;
    assert.ok(closedAfter < 3000, `closed after ${closedAfter} ms`);
    assert.match(connection.received(), /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(connection.received(), /"type":"\/problems\/request-timeout"/);
  });

  it('a body sent a byte at a time is cut off at the request timeout (on /token, as RFC 6749 invalid_request)', async () => {
    const connection = await open(server);
    const body = `grant_type=client_credentials&padding=${'x'.repeat(100)}`;
    connection.socket.write(
      `POST /token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    void trickle(connection, body, 50);
    const closedAfter = await connection.closed;
    assert.ok(closedAfter < 4000, `closed after ${closedAfter} ms`);
    assert.match(connection.received(), /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(connection.received(), /"error":"invalid_request","error_description":"request could not be read"/);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const connection = await open(server);
    connection.socket.write('GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: x\r\n\r\n');
    const closedAfter = await connection.closed;
    assert.match(connection.received(), /^HTTP\/1\.1 200 /);
    assert.match(connection.received(), /keep-alive: timeout=0\b|Keep-Alive: timeout=0\b/i);
    assert.ok(closedAfter < 3000, `closed after ${closedAfter} ms`);
  });

  it('headers over the limit get 431 request-header-too-large', async () => {
    const connection = await open(server);
    connection.socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`);
    await connection.closed;
    assert.match(connection.received(), /^HTTP\/1\.1 431 /);
    assert.match(connection.received(), /"type":"\/problems\/request-header-too-large"/);
  });

  it('past the connection limit a new connection is closed at once, and the open ones are served', async () => {
    const held = await Promise.all(Array.from({ length: 6 }, () => open(server)));
    const extra = await open(server);
    const closedAfter = await extra.closed;
    assert.equal(extra.received(), '');
    assert.ok(closedAfter < 400, `closed after ${closedAfter} ms`);
    const first = held[0] as RawConnection;
    first.socket.write('GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await first.closed;
    assert.match(first.received(), /^HTTP\/1\.1 200 /);
    for (const connection of held) connection.socket.destroy();
  });
});
