import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { OAuthError, PROBLEMS, ProblemError, type ProblemCode } from '@gatehouse/contract';
import type {
  ConnectionError as FastifyConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { afterEarlierAnswers } from './pipelining.js';
import { sendProblem, toProblem } from './problems.js';

/**
 * Requests Fastify never routes, answered from the catalog like every other error. Node's HTTP
 * parser refuses what is not HTTP/1.1 (an unknown method, a malformed request line or header field,
 * a body cut short of its Content-Length, headers over 16 KiB, a request slower than the timeout);
 * the router refuses a path that is not percent-encoded UTF-8 or a path parameter over its limit.
 * Fastify's defaults answer those with bodies of their own, outside the catalog.
 */

interface ConnectionError {
  readonly code?: string;
  /** What the parser had read: the request line and headers, credentials included. Never logged. */
  readonly rawPacket?: Buffer;
  /** Where in `rawPacket` the parser stopped. */
  readonly bytesParsed?: number;
}

/** The problem for a parser error: too slow, headers too large, or anything else unreadable. */
export function problemOfParserError(code: string | undefined): ProblemCode {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  if (code === 'HPE_HEADER_OVERFLOW') return 'request_header_too_large';
  return 'malformed_request';
}

/** A request line (RFC 9112 §3), or an HTTP/0.9 one, at the start of a packet or after a header section. */
const LINE_AFTER_HEAD = /(?:^|\r\n\r\n)[!#$%&'*+.^_`|~0-9A-Za-z-]+ ([^\s]+)(?= |\r?\n|$)/g;
/**
 * A whole HTTP/1.x request line anywhere: after the body of a pipelined request, too. The method
 * must start where a run of token characters starts, so that a long run is scanned once, not once
 * per character (the bytes are the client's: no quadratic backtracking on them).
 */
const VERSIONED_LINE = /(?<![!#$%&'*+.^_`|~0-9A-Za-z-])[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\/[^\s]*) HTTP\/\d\.\d\r?\n/g;

/**
 * The path of the refused request, when the parser got that far; never its query. `response` is
 * Node's response to it when its head was read; otherwise its request line is the last one the
 * parser's bytes hold before where it stopped (pipelined requests come before it in the packet).
 */
export function pathOfUnreadableRequest(
  error: ConnectionError,
  response: ServerResponse | undefined,
): string | undefined {
  if (response?.req?.url !== undefined) return response.req.url.split(/[?#]/)[0];
  if (!error.rawPacket) return undefined;
  const bytes = error.rawPacket.toString('latin1');
  const stop = error.bytesParsed ?? bytes.length;
  let last: { at: number; target: string } | undefined;
  for (const pattern of [LINE_AFTER_HEAD, VERSIONED_LINE]) {
    for (const match of bytes.matchAll(pattern)) {
      if (match.index <= stop && match[1] !== undefined && match.index >= (last?.at ?? -1))
        last = { at: match.index, target: match[1] };
    }
  }
  return last?.target.split(/[?#]/)[0];
}

/**
 * The whole HTTP/1.1 answer, as bytes, to write on a socket the parser gave up on. `oauthFormPaths`:
 * the paths whose errors are RFC 6749 §5.2 bodies (the app passes the OAuth endpoints' form paths).
 */
export function unreadableRequestAnswer(
  error: ConnectionError,
  path: string | undefined,
  issuer: string,
  oauthFormPaths: ReadonlySet<string>,
): string {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', connection: 'close' };
  let status: number;
  let body: string;
  if (path !== undefined && oauthFormPaths.has(path)) {
    const oauthError = new OAuthError('request_unreadable');
    status = oauthError.status;
    body = JSON.stringify(oauthError.toBody(issuer));
    Object.assign(headers, { 'cache-control': 'no-store', pragma: 'no-cache' });
  } else {
    const code = problemOfParserError(error.code);
    status = PROBLEMS[code].status;
    body = new ProblemError(code).toJson(path ?? '/');
    headers['content-type'] = 'application/problem+json; charset=utf-8';
    if (PROBLEMS[code].transient) headers['retry-after'] = '1';
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`;
}

/** Sockets whose unreadable request is being answered: the parser reports each later packet again. */
const refusing = new WeakSet<Socket>();

/**
 * Fastify's `clientErrorHandler`: a catalog answer, after the answers to the requests pipelined
 * before the unreadable one (Node's own handler would write it at once and drop them), then close.
 */
export function clientErrorHandler(issuer: string, oauthFormPaths: ReadonlySet<string>) {
  return function handleClientError(
    this: FastifyInstance,
    connectionError: FastifyConnectionError,
    socket: Socket,
  ): void {
    // Node passes the parser's bytes as a Buffer (Fastify's type says otherwise).
    const error = connectionError as unknown as ConnectionError;
    if (error.code === 'ECONNRESET' || socket.destroyed || refusing.has(socket)) return;
    refusing.add(socket);
    this.log.debug({ code: error.code }, 'unreadable request refused');
    afterEarlierAnswers(socket, (state) => {
      // An answer to the unreadable request had begun and is written: nothing more can be said.
      if (state.answered || !socket.writable) socket.destroySoon();
      else {
        const path = pathOfUnreadableRequest(error, state.response);
        endWith(socket, unreadableRequestAnswer(error, path, issuer, oauthFormPaths));
      }
    });
  };
}

/**
 * The server's 'connect' listener. Gatehouse is no proxy: a CONNECT request (RFC 9110 §9.3.6),
 * which Node hands over with its socket instead of routing it, is answered malformed-request.
 */
export function connectRequestHandler(issuer: string) {
  return function handleConnect(_request: IncomingMessage, socket: Socket): void {
    // Node took its own error listener off the socket: without one, a reset would crash the process.
    socket.on('error', () => socket.destroy());
    afterEarlierAnswers(socket, () => {
      if (socket.writable)
        endWith(socket, unreadableRequestAnswer({ code: 'HPE_CONNECT' }, undefined, issuer, NO_PATHS));
      else socket.destroy();
    });
  };
}

const NO_PATHS: ReadonlySet<string> = new Set();

function endWith(socket: Socket, answer: string): void {
  socket.end(answer, () => socket.destroy());
}

/** Fastify's `frameworkErrors`: a path that is not UTF-8, or a path parameter no resource can have. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(reply, request, toProblem(error));
}
