// The floor (floor.mjs: the same store, authentication, signing and answers) served by a plain
// Fastify app instead of node:http. Its ratio to the floor is the framework's price alone; Gatehouse's
// ratio to it is what Gatehouse does beyond the framework (bench/README.md).
process.env.FLOOR_HTTP = 'fastify';
await import('./floor.mjs');
