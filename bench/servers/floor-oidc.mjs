// The floor (floor.mjs) of an OpenID grant's refresh: the same rotation, and with each answer an RS256
// ID token (OIDC Core §12.2) signed on libuv's thread pool, as Gatehouse signs it (bench/README.md).
process.env.FLOOR_WORK = 'id-token';
await import('./floor.mjs');
