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
