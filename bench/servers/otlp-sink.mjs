// An OTLP/HTTP receiver that keeps nothing: the collector TRACING=otlp exports to in the bench's
// `refresh-traced` scenario. It reads each export (POST /v1/traces, JSON) and answers 200 with an
// empty ExportTraceServiceResponse, so the exporter's cost is measured, not a collector's. Its own
// CPU is not counted as Gatehouse's. On SIGTERM it prints how many exports and bytes it took.
import { createServer } from 'node:http';

let exports = 0;
let bytes = 0;
const server = createServer((request, response) => {
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => {
    exports += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  console.error(`otlp-sink: ${exports} exports, ${bytes} bytes`);
  server.close();
  process.exit(0);
});
