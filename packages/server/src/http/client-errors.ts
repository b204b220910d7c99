import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { OAuthError, PROBLEMS, ProblemError, type ProblemCode } from '@gatehouse/contract';
import type {
  ConnectionError as FastifyConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { OAUTH_FORM_PATHS } from '../oauth/endpoints/index.js';
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
}

/** The problem for a parser error: too slow, headers too large, or anything else unreadable. */
export function problemOfParserError(code: string | undefined): ProblemCode {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  if (code === 'HPE_HEADER_OVERFLOW') return 'request_header_too_large';
  return 'malformed_request';
}

/** The path of the refused request, when the parser got that far; never its query. */
export function pathOfUnreadableRequest(
  error: ConnectionError,
  inFlight: ServerResponse | undefined,
): string | undefined {
  const target =
    inFlight?.req?.url ?? /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ ([^\s]+) /.exec(error.rawPacket?.toString('latin1') ?? '')?.[1];
  return target?.split(/[?#]/)[0];
}

/** The whole HTTP/1.1 answer, as bytes, to write on a socket the parser gave up on. */
export function unreadableRequestAnswer(error: ConnectionError, path: string | undefined, issuer: string): string {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', connection: 'close' };
  let status: number;
  let body: string;
  if (path !== undefined && OAUTH_FORM_PATHS.has(path)) {
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

/** Fastify's `clientErrorHandler`: a catalog answer, unless the socket is gone or already answering. */
export function clientErrorHandler(issuer: string) {
  return function handleClientError(
    this: FastifyInstance,
    connectionError: FastifyConnectionError,
    socket: Socket,
  ): void {
    // Node passes the parser's bytes as a Buffer (Fastify's type says otherwise).
    const error = connectionError as unknown as ConnectionError;
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // Node's own handler checks the same: a response already begun on this socket cannot be replaced.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    this.log.debug({ code: error.code }, 'unreadable request refused');
    if (socket.writable && !inFlight?.headersSent) {
      socket.end(unreadableRequestAnswer(error, pathOfUnreadableRequest(error, inFlight), issuer), () =>
        socket.destroy(),
      );
    } else {
      socket.destroy();
    }
  };
}

/** Fastify's `frameworkErrors`: a path that is not UTF-8, or a path parameter no resource can have. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return sendProblem(
        reply,
        request,
        new ProblemError('malformed_request', 'The URL path is not valid percent-encoded UTF-8.'),
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendProblem(
        reply,
        request,
        new ProblemError(
          'not_found',
          'There is no resource at this URL: a path segment is longer than any identifier.',
        ),
      );
    default:
      return sendProblem(reply, request, toProblem(error));
  }
}
