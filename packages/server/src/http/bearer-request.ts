import type { RequestReader } from '@gatehouse/contract';
import type { FastifyRequest } from 'fastify';

/**
 * How the contract's access-token verifier reads a Fastify request: its method, any header, and its
 * absolute URL (built only when read; RFC 9449 §4.3 compares a DPoP proof's `htu` with it).
 */
export const FASTIFY_REQUEST: RequestReader<FastifyRequest> = {
  method: (request) => request.method,
  header: (request, name) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  },
  absoluteUrl: (request) => `${request.protocol}://${request.host}${request.url}`,
};

/**
 * The same reader, with the URL as the client addressed it: under the server's public origin, the
 * issuer (RFC 9449 §7.1 compares `htu` with it; behind a proxy, the address the server listens on
 * is not what the client named).
 */
export function publicRequestReader(issuer: string): RequestReader<FastifyRequest> {
  return { ...FASTIFY_REQUEST, absoluteUrl: (request) => `${issuer}${request.url}` };
}
