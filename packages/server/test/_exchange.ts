import assert from 'node:assert/strict';
import { connect } from 'node:net';

/** One HTTP/1.1 answer read off a connection that may carry several (pipelining). */
export interface Answer {
  readonly status: number;
  /** Lower-case names; a repeated header keeps its values joined by ', '. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export interface Exchange {
  /** Every answer, in the order the server wrote them. */
  readonly answers: readonly Answer[];
  /** Bytes after the last whole answer (none when the server wrote only whole answers). */
  readonly rest: string;
  /** Whether the server closed the connection (FIN or reset) before the timeout. */
  readonly closed: boolean;
}

/**
 * Writes `bytes` on a fresh connection in one write, as a client that pipelines would, then
 * half-closes (FIN) if `halfClose`, and reads until the server closes or `timeoutMs` passes.
 */
export function exchange(
  baseUrl: string,
  bytes: string | Buffer,
  { halfClose = false, timeoutMs = 5000 }: { halfClose?: boolean; timeoutMs?: number } = {},
): Promise<Exchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswers(Buffer.concat(chunks).toString('latin1')), closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(bytes, () => {
      if (halfClose) socket.end();
    });
  });
}

/** Splits what a connection carried into answers framed by Content-Length (all Gatehouse sends). */
export function parseAnswers(all: string): { answers: Answer[]; rest: string } {
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = all.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const [statusLine = '', ...lines] = all.slice(at, end).split('\r\n');
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine);
    assert.ok(status?.[1], `a status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const length = Number(headers['content-length'] ?? 0);
    const body = Buffer.from(all.slice(end + 4), 'latin1').subarray(0, length);
    answers.push({ status: Number(status[1]), headers, text: body.toString('utf8') });
    at = end + 4 + body.toString('latin1').length;
  }
  return { answers, rest: all.slice(at) };
}
