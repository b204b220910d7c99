import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackListener {
  /** `http://127.0.0.1:<port><path>`: the redirect URI to register and to send. */
  readonly redirectUri: string;
  readonly port: number;
  /**
   * The first callback `accept` takes (the one carrying our `state`); others are answered 400 and
   * ignored, since any local program can reach a loopback port. Rejects after `timeoutMs`.
   */
  waitForCallback(accept: (callback: URL) => boolean, timeoutMs: number): Promise<URL>;
  close(): Promise<void>;
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'",
};
const page = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${text}</p></html>`;

/**
 * Listens on the IPv4 loopback address for the authorization response of a native app: plain http
 * on 127.0.0.1 (not "localhost", which may resolve elsewhere), on `port`, 0 choosing a free one.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3 RFC 8252 §7.3
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-8.3 RFC 8252 §8.3
 */
export async function listenOnLoopback(
  options: { readonly port?: number; readonly path?: string } = {},
): Promise<LoopbackListener> {
  const path = options.path ?? '/callback';
  let deliver: ((url: URL) => boolean) | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path) {
      response.writeHead(404, PAGE_HEADERS).end(page('Not found', 'Nothing is served here.'));
      return;
    }
    if (deliver?.(url) === true) {
      response
        .writeHead(200, PAGE_HEADERS)
        .end(page('Signed in', 'You can close this window and return to the terminal.'));
    } else {
      response
        .writeHead(400, PAGE_HEADERS)
        .end(page('Not expected', 'This is not the sign-in the terminal is waiting for.'));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}${path}`,
    port,
    waitForCallback(accept, timeoutMs) {
      return new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          deliver = undefined;
          reject(
            new Error(`no sign-in arrived at http://127.0.0.1:${port}${path} within ${Math.round(timeoutMs / 1000)} s`),
          );
        }, timeoutMs);
        deliver = (url) => {
          if (!accept(url)) return false;
          clearTimeout(timer);
          deliver = undefined;
          resolve(url);
          return true;
        };
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
