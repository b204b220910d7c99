// The floor (floor.mjs) of a DPoP-bound refresh (RFC 9449 §5): the same rotation for a public client,
// with one ES256 proof verified per refresh and its `jti` recorded in the rotation's transaction.
process.env.FLOOR_WORK = 'dpop';
await import('./floor.mjs');
