// The plain Fastify route (fastify-route.mjs) verifying one ES256 DPoP proof per request: the peer
// of kit-dpop-201, so that the ratio prices the kit's work above that verification.
process.env.FASTIFY_DPOP = '1';
await import('./fastify-route.mjs');
