import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LANDING_HEADERS, renderLandingPage, type LandingPage } from './landing-page.js';

/** The authorization response that reached the listener, whose browser waits for `answer`. */
export interface LoopbackCallback {
  readonly url: URL;
  /**
   * Shows the browser how the sign-in ended. The browser's request is held open until then, so the
   * page can tell the truth: written after the code exchange, it says whether the exchange worked.
   */
  answer(page: LandingPage): void;
}

export interface LoopbackListener {
  /** `http://127.0.0.1:<port><path>`: the redirect URI to register and to send. */
  readonly redirectUri: string;
  readonly port: number;
  /**
   * The first callback `accept` takes (the one carrying our `state`); others are answered 400 and
   * ignored, since any local program can reach a loopback port. Rejects after `timeoutMs`.
   */
  waitForCallback(accept: (callback: URL) => boolean, timeoutMs: number): Promise<LoopbackCallback>;
  /** Stops listening; a callback left unanswered is told the sign-in did not complete. */
  close(): Promise<void>;
}

const NOT_COMPLETED: LandingPage = {
  status: 500,
  ok: false,
  title: 'Sign-in not completed',
  text: 'The terminal stopped waiting before the sign-in finished. Return to the terminal and try again.',
};

function send(response: ServerResponse, page: LandingPage): void {
  if (!response.headersSent) response.writeHead(page.status, LANDING_HEADERS).end(renderLandingPage(page));
}

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
  let deliver: ((url: URL, response: ServerResponse) => boolean) | undefined;
  let held: ServerResponse | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path) {
      send(response, { status: 404, ok: false, title: 'Not found', text: 'Nothing is served here.' });
      return;
    }
    if (deliver?.(url, response) !== true) {
      send(response, {
        status: 400,
        ok: false,
        title: 'Not expected',
        text: 'This is not the sign-in the terminal is waiting for.',
      });
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
      return new Promise<LoopbackCallback>((resolve, reject) => {
        const timer = setTimeout(() => {
          deliver = undefined;
          reject(
            new Error(`no sign-in arrived at http://127.0.0.1:${port}${path} within ${Math.round(timeoutMs / 1000)} s`),
          );
        }, timeoutMs);
        deliver = (url, response) => {
          if (!accept(url)) return false;
          clearTimeout(timer);
          deliver = undefined;
          held = response;
          resolve({ url, answer: (page) => send(response, page) });
          return true;
        };
      });
    },
    async close() {
      if (held !== undefined) {
        send(held, NOT_COMPLETED);
        // The page is written before the connections are cut, so the browser gets all of it.
        const response = held;
        if (!response.writableFinished && !response.destroyed)
          await new Promise((resolve) => {
            response.once('finish', resolve);
            response.once('close', resolve);
          });
      }
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
