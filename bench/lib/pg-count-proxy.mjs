// A TCP proxy in front of PostgreSQL that counts round trips: the frontend messages after which the
// client waits for the server's ReadyForQuery — Sync (extended query protocol) and Query (simple
// protocol), per the PostgreSQL frontend/backend protocol, "Message Flow". It reads only the framing
// (a type byte and a 32-bit length); the first message of a connection (startup or SSLRequest) has
// no type byte. The bench uses it to say how many round trips a refresh costs.
import { connect, createServer } from 'node:net';

export async function countingProxy(host, port) {
  let roundTrips = 0;
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let at = 0;
      for (;;) {
        if (!started) {
          if (pending.length - at < 4) break;
          const length = pending.readInt32BE(at);
          if (pending.length - at < length) break;
          // SSLRequest and GSSENCRequest are answered by one byte, then the startup message follows.
          const code = pending.readInt32BE(at + 4);
          if (code !== 80877103 && code !== 80877104) started = true;
          at += length;
          continue;
        }
        if (pending.length - at < 5) break;
        const type = String.fromCharCode(pending[at]);
        const length = pending.readInt32BE(at + 1);
        if (pending.length - at < 1 + length) break;
        if (type === 'S' || type === 'Q') roundTrips += 1;
        at += 1 + length;
      }
      pending = pending.subarray(at);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    roundTrips: () => roundTrips,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(resolve);
    }),
  };
}
