/**
 * A test certificate authority and a server certificate it signed, for https servers the tests run
 * themselves (a client ID metadata document, a jwks_uri). Pre-generated with openssl, valid until
 * 2126; the CA's private key was discarded after signing, so nothing else can be issued under it.
 * The leaf names agent.example.test, localhost, 127.0.0.1 and ::1.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url), 'utf8');

export const TEST_CA = fixture('ca.pem');
export const TEST_HOST = 'agent.example.test';

export interface TlsServer {
  readonly server: Server;
  readonly port: number;
  /** https://agent.example.test:<port> */
  readonly origin: string;
  readonly close: () => Promise<void>;
}

/** An https server on 127.0.0.1 with the test certificate, on an ephemeral port. */
export async function startTlsServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<TlsServer> {
  const server = createServer({ key: fixture('server.key'), cert: fixture('server.pem') }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    origin: `https://${TEST_HOST}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
