import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest, FastifyReply, preParsingHookHandler } from 'fastify';
import type { SharedRequestWork } from './shared-hooks.js';

/**
 * Requests Node's parser reads but Gatehouse does not serve, refused from the catalog on every route
 * (each context answers in its own form: a problem, an RFC 6749 §5.2 body, or an error page).
 */

/** A request of an HTTP version other than 1.0 or 1.1: an HTTP/0.9 request line, or "HTTP/2.0" as text. */
export class UnsupportedHttpVersion extends ProblemError {
  constructor(version: string) {
    super(
      'malformed_request',
      version === '0.9'
        ? 'The request line has no HTTP version (HTTP/0.9); send HTTP/1.1.'
        : 'The request is not HTTP/1.1; send HTTP/1.1.',
    );
    this.name = 'UnsupportedHttpVersion';
  }
}

/** A request body with a content coding (RFC 9110 §8.4): Gatehouse reads bodies only as sent. */
export class UnsupportedContentCoding extends ProblemError {
  constructor() {
    super(
      'unsupported_media_type',
      'The request body has a Content-Encoding; send it without one (Accept-Encoding: identity).',
    );
    this.name = 'UnsupportedContentCoding';
  }
}

/** The content codings a Content-Encoding header lists, lower-case; `identity` (no coding) left out. */
export function contentCodingsOf(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * Node's parser takes `GET /\r\n\r\n` (no version) as an HTTP/0.9 request, and `HTTP/2.0` in a
 * request line as a version; docs/rest-api.md ("Errors") promises malformed-request for what is not HTTP/1.1. HTTP/1.0 is still served
 * (RFC 9112 §2.3). The connection is closed after the answer: the client speaks something else.
 */
function refuseOtherHttpVersions(request: FastifyRequest, reply: FastifyReply): Error | undefined {
  const { httpVersionMajor: major, httpVersionMinor: minor, httpVersion } = request.raw;
  if (major === 1 && (minor === 0 || minor === 1)) return undefined;
  reply.header('connection', 'close');
  return new UnsupportedHttpVersion(httpVersion);
}

/**
 * RFC 9110 §15.5.16: a body in a content coding the server does not support is a 415, and §12.5.3:
 * the answer says which codings would have been accepted (`Accept-Encoding: identity`, none).
 * Before this, a gzip body labelled so was read as plain JSON or form text. Run before the body is
 * read, after each route's own onRequest checks (the bearer token and the content type come first).
 */
const refuseContentCodings: preParsingHookHandler = (request, reply, payload, done) => {
  const { headers } = request;
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if (!hasBody || contentCodingsOf(headers['content-encoding']).length === 0) {
    done(null, payload);
    return;
  }
  reply.header('accept-encoding', 'identity');
  done(new UnsupportedContentCoding());
};

/**
 * Adds the content-coding check to every route, and returns the HTTP version check for the shared
 * onRequest hook (shared-hooks.ts); call before registering the routes.
 */
export function refuseUnsupportedRequests(app: FastifyInstance): SharedRequestWork {
  app.addHook('preParsing', refuseContentCodings);
  return { onRequest: refuseOtherHttpVersions };
}
