/**
 * Token exchange (RFC 8693): the decision on a subject (and actor) token, and the trusted issuers whose
 * JWTs it takes besides this server's own tokens.
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export { decideExchange, type ExchangeDecision, ExchangeRefused } from './token-exchange.js';
export { type TrustedIssuerConfig, TrustedIssuers, trustedIssuersFrom } from './trusted-issuers.js';
