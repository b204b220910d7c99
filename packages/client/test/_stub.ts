import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubServer {
  readonly url: string;
  readonly requests: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

/** A scripted HTTP server for answers Gatehouse does not give on demand (503s, garbage, 429s). */
export async function startStub(
  handle: (request: { method: string; path: string; body: string }, response: ServerResponse, index: number) => void,
): Promise<StubServer> {
  const requests: { method: string; path: string; body: string }[] = [];
  const server = createServer((incoming: IncomingMessage, response) => {
    let body = '';
    incoming
      .setEncoding('utf8')
      .on('data', (chunk: string) => (body += chunk))
      .on('end', () => {
        const request = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', body };
        requests.push(request);
        handle(request, response, requests.length - 1);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
