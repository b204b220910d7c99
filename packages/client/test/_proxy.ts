import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy, and the status the server answered. */
export interface Exchange {
  readonly method: string;
  readonly path: string;
  /** The parsed form body of a form POST (e.g. the token endpoint's grant_type). */
  readonly form: Readonly<Record<string, string>> | undefined;
  /** When the request arrived (epoch milliseconds). */
  readonly at: number;
  status: number;
}

export interface CountingProxy {
  readonly url: string;
  /** Every request forwarded so far, in order of arrival. */
  readonly exchanges: readonly Exchange[];
  /** Where requests go; set once the server behind listens. */
  target: string;
  /** Answers the proxy gives itself, by path (not forwarded, not counted): a test page on the issuer's origin. */
  readonly local: Map<string, { readonly contentType: string; readonly body: string }>;
  count(filter: (e: Exchange) => boolean): number;
  close(): Promise<void>;
}

/**
 * A tiny HTTP proxy in front of the server under test, counting what reaches it. It listens first,
 * so that its URL can be the server's issuer, and forwards byte for byte, Host header included
 * (a server that builds its URLs from Host, like oidc-provider, then names the proxy).
 */
export async function startCountingProxy(): Promise<CountingProxy> {
  const exchanges: Exchange[] = [];
  const local: CountingProxy['local'] = new Map();
  const proxy: { target: string } = { target: '' };
  const server = createServer((incoming, outgoing) => {
    const own = local.get(incoming.url ?? '');
    if (own !== undefined) {
      outgoing.writeHead(200, { 'content-type': own.contentType, 'cache-control': 'no-store' }).end(own.body);
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const isForm = /^application\/x-www-form-urlencoded/.test(incoming.headers['content-type'] ?? '');
      const exchange: Exchange = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        at: Date.now(),
        status: 0,
        form: isForm ? Object.fromEntries(new URLSearchParams(body.toString('utf8'))) : undefined,
      };
      exchanges.push(exchange);
      const upstream = new URL(incoming.url ?? '/', proxy.target);
      const forwarded = httpRequest(upstream, { method: incoming.method, headers: incoming.headers }, (answer) => {
        exchange.status = answer.statusCode ?? 0;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', () => {
        exchange.status = 502;
        outgoing.writeHead(502).end();
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    local,
    count: (filter: (e: Exchange) => boolean) => exchanges.filter(filter).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

/** A refresh-token request at the token endpoint. */
export const isRefresh = (e: Exchange): boolean =>
  e.method === 'POST' && e.path === '/token' && e.form?.grant_type === 'refresh_token';
